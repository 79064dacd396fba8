import { describe, expect, test } from 'vitest';
import { endpointDisplayName, endpointUrl } from './replication.ts';
import { aftercareStatus, aftercareStatusWhere } from './patients.ts';
import { formatCode } from './patient-tokens.ts';

const here = { hostname: 'portal.example.de', port: '' };

describe('endpointUrl', () => {
  test('uses the current host when the endpoint omits it', () => {
    expect(endpointUrl({ protocol: 'https', host: null, port: null }, here)).toBe('https://portal.example.de');
  });
  test('keeps the page port when host and port are both omitted', () => {
    expect(endpointUrl({ protocol: 'http', host: null, port: null }, { hostname: 'localhost', port: '8080' })).toBe('http://localhost:8080');
  });
  test('an explicit port wins over the page port', () => {
    expect(endpointUrl({ protocol: 'http', host: null, port: 5984 }, { hostname: 'localhost', port: '8080' })).toBe('http://localhost:5984');
  });
  test('does not take the page port for a different host', () => {
    expect(endpointUrl({ protocol: 'https', host: 'sync.example.de', port: null }, { hostname: 'a', port: '8080' })).toBe('https://sync.example.de');
  });
  test('leaves out the default port of the protocol and appends the path without trailing slash', () => {
    expect(endpointUrl({ protocol: 'https', host: 'sync.example.de', port: 443, path: '/replicate/' }, here)).toBe('https://sync.example.de/replicate');
    expect(endpointUrl({ protocol: 'http', host: 'sync.example.de', port: 443 }, here)).toBe('http://sync.example.de:443');
  });
  test('brackets an IPv6 host', () => {
    expect(endpointUrl({ protocol: 'http', host: '::1', port: 5984 }, here)).toBe('http://[::1]:5984');
  });
  test('falls back to window.location in the browser', () => {
    expect(endpointUrl({ protocol: 'https', host: null, port: null })).toBe(`https://${window.location.host}`);
  });
});

describe('endpointDisplayName', () => {
  test('joins product and endpoint name with a bar', () => {
    expect(endpointDisplayName('CL', { name: 'Klinik Nord' })).toBe('CL | Klinik Nord');
  });
  test('strips quotation marks from the product name like the instance title', () => {
    expect(endpointDisplayName('"Nachsorge Plus"', { name: 'Replikat' })).toBe('Nachsorge Plus | Replikat');
  });
});

describe('aftercare status', () => {
  const p = { aftercareStart: '2026-03-01', aftercareEnd: '2026-05-31' };
  test('counts both ends of the interval as active', () => {
    expect(aftercareStatus(p, '2026-02-28')).toBe('planned');
    expect(aftercareStatus(p, '2026-03-01')).toBe('active');
    expect(aftercareStatus(p, '2026-05-31')).toBe('active');
    expect(aftercareStatus(p, '2026-06-01')).toBe('completed');
  });
  test('builds the list filter for active patients from both interval ends', () => {
    expect(aftercareStatusWhere('active', '2026-04-01')).toEqual({ and: [{ aftercareStart: { lte: '2026-04-01' } }, { aftercareEnd: { gte: '2026-04-01' } }] });
  });
});

test('formatCode groups a code in blocks of four', () => {
  expect(formatCode('k7qmr3txw')).toBe('K7QM-R3TX-W');
  expect(formatCode('K7QM-R3TX-W')).toBe('K7QM-R3TX-W');
});
