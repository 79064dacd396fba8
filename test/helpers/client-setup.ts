import { afterEach, beforeAll } from 'vitest';
import { cleanup, configure } from '@testing-library/preact';
import de from '../../locales/de.json' with { type: 'json' };
import deHelp from '../../locales/help/de.json' with { type: 'json' };
import dePrint from '../../locales/print/de.json' with { type: 'json' };
import { addDictionary, addDocument, activate } from '../../client/lib/i18n.ts';
import { resetRequestCacheForTests } from '../../client/data/request-cache.ts';
import { resetConnectionForTests } from '../../client/lib/connection.ts';

// findBy*/waitFor give a lazily loaded screen 5 s instead of 1 s: on two busy cores an import can take longer, and a
// screen that never comes still fails.
configure({ asyncUtilTimeout: 5000 });

// Client tests render with the real German texts, exactly as the app ships them.
beforeAll(() => {
  addDictionary('de', de as Record<string, unknown>);
  addDocument('help', 'de', deHelp as Record<string, unknown>);
  addDocument('print', 'de', dePrint as Record<string, unknown>);
  activate('de');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  // Kept answers and the connection state belong to one test, like the fetch mock that made them.
  resetRequestCacheForTests();
  resetConnectionForTests();
});
