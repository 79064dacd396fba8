import { afterEach, beforeAll } from 'vitest';
import { cleanup } from '@testing-library/preact';
import de from '../../locales/de.json' with { type: 'json' };
import { addDictionary, activate } from '../../client/lib/i18n.ts';

// Client tests render with the real German texts, exactly as the app ships them.
beforeAll(() => {
  addDictionary('de', de as Record<string, unknown>);
  activate('de');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
