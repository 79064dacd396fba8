import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import request from 'supertest';
import { fileRowsTest } from '../../helpers/upstream-rows.ts';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));

const test = fileRowsTest()
  .extend('coach', { scope: 'file' }, ({ u }) => u.coach('coach'))
  /** supertest buffers unknown content types only when asked to. */
  .extend(
    'download',
    { scope: 'file' },
    ({ u }) =>
      (path: string) =>
        request(u.app)
          .get(path)
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          }),
  );

describe('app settings', () => {
  test('the version is the one in package.json', async ({ u, coach }) => {
    const res = await request(u.app).get('/v2/app-settings/version').set('Authorization', coach.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: pkg.version, name: pkg.name });
  });

  test('settings list every asset with its content type and size, and need a token', async ({ u, coach }) => {
    const res = await request(u.app).get('/v2/app-settings').set('Authorization', coach.auth);
    expect(res.status).toBe(200);
    expect(res.body.logoAssetId).toBe('logo');
    const logo = res.body.assets.find((a: { id: string }) => a.id === 'logo');
    expect(logo).toEqual({ id: 'logo', fileName: 'logo.png', contentType: 'image/png', size: 414 });
    expect((await request(u.app).get('/v2/app-settings')).status).toBe(401);
  });

  test('serves a PNG asset as image/png with the PNG signature, without a token', async ({ download }) => {
    const res = await download('/v2/app-settings/asset/logo');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect((res.body as Buffer).subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  test('serves every listed asset with its own content type and declared size', async ({ u, coach, download }) => {
    const settings = await request(u.app).get('/v2/app-settings').set('Authorization', coach.auth);
    for (const asset of settings.body.assets) {
      const res = await download(`/v2/app-settings/asset/${asset.id}`);
      expect(res.headers['content-type']).toBe(asset.contentType);
      expect((res.body as Buffer).length).toBe(asset.size);
      if (asset.contentType === 'application/pdf') expect((res.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  test('answers 404 in the JSON error format for an unknown asset and never reads a path from the request', async ({ u }) => {
    const res = await request(u.app).get('/v2/app-settings/asset/unknown');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('ASSET_NOT_FOUND');
    expect((await request(u.app).get('/v2/app-settings/asset/..%2F..%2Fpackage.json')).status).toBe(404);
  });
});

describe('system', () => {
  test('settings default to creating patients allowed and the title CL', async ({ u, coach }) => {
    const res = await request(u.app).get('/v2/system/settings').set('Authorization', coach.auth);
    expect(res.body).toEqual({ enable_creating_new_patients: true, instance_name: 'CL' });
  });

  test('settings follow what is stored', async ({ u, coach }) => {
    await u.db.updateTable('settings').set({ value: 'false' }).where('key', '=', 'enable_creating_new_patients').execute();
    const res = await request(u.app).get('/v2/system/settings').set('Authorization', coach.auth);
    expect(res.body.enable_creating_new_patients).toBe(false);
    await u.db.updateTable('settings').set({ value: 'true' }).where('key', '=', 'enable_creating_new_patients').execute();
  });

  test('training materials come with a downloadable PDF each', async ({ u, coach, download }) => {
    const res = await request(u.app).get('/v2/system/training-materials').set('Authorization', coach.auth);
    expect(res.status).toBe(200);
    expect(res.body.map((m: { title: string }) => m.title)).toEqual([
      'Handbuch für Coaches',
      'Leitfaden für Patientinnen und Patienten',
      'Protokollbogen Telefoncoaching',
    ]);
    for (const material of res.body) {
      const file = await download(`/v2/app-settings/asset/${material.assetId}`);
      expect(file.status).toBe(200);
      expect(file.headers['content-type']).toBe(material.contentType);
    }
  });
});
