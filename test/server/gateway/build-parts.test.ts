import { describe, expect, test } from 'vitest';
import { firstScreenSheet } from '../../../scripts/build-css.ts';

describe('the first-screen stylesheet', () => {
  const APP = [
    ':root{--used:1px;--chain:var(--used);--unused:2px;--via:var(--chain)}',
    'input{padding:var(--via)}',
    '.topbar{color:red}',
    'table td{color:red}',
    'input[type=checkbox]{margin:0}',
    ':where(input,select):not([type=checkbox]){border:0}',
    'h1,dialog>header{margin:0}',
    '@media(min-width:768px){.sidebar{width:250px}.auth-card{width:420px}}',
    '@media(min-width:1024px){.sidebar{width:300px}}',
    '@keyframes spin{to{transform:rotate(1turn)}}@keyframes unused{to{opacity:0}}',
    '[aria-busy=true]:before{animation:spin 1s}',
    'label:has([type=radio]){cursor:pointer}',
    '::-webkit-inner-spin-button{height:auto}::-ms-expand{display:none}::placeholder{opacity:1}',
  ].join('');
  const sheet = firstScreenSheet(APP);

  test('keeps rules that can style the first screen and drops those for elements it never renders', () => {
    expect(sheet).toContain('input{padding:var(--via)}');
    expect(sheet).toContain(':where(input,select):not([type=checkbox]){border:0}');
    expect(sheet).toContain('.auth-card{width:420px}');
    for (const gone of ['.topbar', 'table td', '[type=checkbox]{margin', '.sidebar', ':has', 'spin-button', 'ms-expand']) expect(sheet).not.toContain(gone);
    expect(sheet).toContain('::placeholder{opacity:1}');
  });

  test('keeps only the selectors of a list that can match', () => {
    expect(sheet).toContain('h1{margin:0}');
    expect(sheet).not.toContain('dialog');
  });

  test('drops custom properties nothing reads, keeping those read through other properties', () => {
    expect(sheet).toContain('--used:1px');
    expect(sheet).toContain('--chain:var(--used)');
    expect(sheet).toContain('--via:var(--chain)');
    expect(sheet).not.toContain('--unused');
  });

  test('drops animations nothing runs and at-rules left empty', () => {
    expect(sheet).toContain('@keyframes spin');
    expect(sheet).not.toContain('@keyframes unused');
    expect(sheet).not.toContain('1024px');
  });
});
