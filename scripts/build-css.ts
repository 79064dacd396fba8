import postcss, { type Container, type Root } from 'postcss';
import selectorParser, { type Selector } from 'postcss-selector-parser';

/**
 * The first-screen sheet: the rules of the app sheet (esbuild's stylesheet of the entry, which holds every CSS file
 * the client imports) that can style an element of the first screen (login, loading, page error, offline banner,
 * unsupported browser), in the same order. The page links only this one; the shell and every area wait for the
 * app sheet (client/lib/areas.ts). The whole app sheet would add 12 KB of brotli to the first screen's 30 KB, and
 * neither esbuild nor a PostCSS plugin at hand cuts a sheet down to the elements one screen renders: this step
 * stays custom.
 *
 * Being a subsequence of the app sheet, it changes nothing when the app sheet arrives after it: every rule has an
 * identical copy later in the app sheet (test/e2e/budgets.test.ts compares the computed styles of every element).
 */

/** What the first screen renders: client/features/login, components/Loading, ErrorBoundary, ConnectionBanner, features/internet-explorer. */
export const FIRST_SCREEN = {
  tags: new Set(['html', 'body', 'div', 'main', 'article', 'header', 'section', 'h1', 'h2', 'p', 'form', 'label', 'input', 'button', 'a', 'noscript']),
  classes: new Set(['auth-page', 'auth-card', 'auth-brand', 'auth-links', 'form-error', 'loading', 'page-error', 'connection-banner', 'visually-hidden']),
  ids: new Set(['app']),
  /** Attributes its elements carry, with the values a selector may test (empty: any value). */
  attributes: {
    type: ['email', 'password', 'submit'],
    name: ['email', 'password'],
    'aria-invalid': ['true'],
    'aria-busy': ['true', 'false'],
    role: ['alert', 'status'],
    id: ['app'],
    ...Object.fromEntries(['aria-live', 'disabled', 'required', 'href', 'autocomplete', 'lang', 'novalidate'].map((name) => [name, []])),
  } as Record<string, string[]>,
};
export type FirstScreenVocabulary = typeof FIRST_SCREEN;

/** Pseudo-elements that exist on one input type or one element only. */
const OWNER: Record<string, string> = {
  '::-webkit-inner-spin-button': 'number',
  '::-webkit-outer-spin-button': 'number',
  '::-webkit-file-upload-button': 'file',
  '::file-selector-button': 'file',
  '::-webkit-search-cancel-button': 'search',
  '::-webkit-search-decoration': 'search',
  '::-webkit-calendar-picker-indicator': 'date',
  '::-webkit-slider-thumb': 'range',
  '::-webkit-slider-runnable-track': 'range',
  '::-moz-range-thumb': 'range',
  '::-moz-range-track': 'range',
  '::-ms-expand': 'select',
  '::-webkit-details-marker': 'summary',
  '::marker': 'li',
};
/** Pseudo-classes that pass their selector list on: they can match when one of their arguments can. */
const MATCHES_ANY = /^:(is|where|matches|-webkit-any|-moz-any|any|has)$/;

/** False when some part of the selector names something the first screen never renders; other pseudo-classes only narrow. */
function canMatch(selector: Selector, words: FirstScreenVocabulary): boolean {
  return selector.nodes.every((node) => {
    if (node.type === 'tag') return words.tags.has(node.value.toLowerCase());
    if (node.type === 'class') return words.classes.has(node.value);
    if (node.type === 'id') return words.ids.has(node.value);
    if (node.type === 'attribute') {
      const allowed = words.attributes[node.attribute.toLowerCase()];
      const value = node.value?.toLowerCase();
      // Exact values only: a prefix or substring test ([type^=e]) may match.
      return !!allowed && !(node.operator === '=' && value !== undefined && allowed.length > 0 && !allowed.includes(value));
    }
    if (node.type !== 'pseudo') return true;
    const name = node.value.toLowerCase();
    if (MATCHES_ANY.test(name)) return node.nodes.some((inner) => canMatch(inner, words));
    const owner = OWNER[name];
    return !owner || words.tags.has(owner) || words.attributes.type.includes(owner);
  });
}

const parser = selectorParser();

/** Keeps the selectors that can match (specificity belongs to each selector of a list), and the rules left with one. */
function prune(container: Container, words: FirstScreenVocabulary): void {
  container.each((node) => {
    if (node.type === 'rule') {
      const keep = parser.astSync(node.selector).nodes.filter((selector) => canMatch(selector, words));
      if (keep.length === 0) node.remove();
      else node.selector = keep.map((selector) => selector.toString().trim()).join(',');
    } else if (node.type === 'atrule' && node.nodes && /^(media|supports|layer|container|(-moz-)?document)$/i.test(node.name)) {
      prune(node, words);
      if (node.nodes.length === 0) node.remove();
    }
    // @keyframes, @font-face, @property: names, not elements (unused animations go below).
  });
}

/** Drops custom properties nothing left reads (directly or through other properties) and animations nothing runs. */
function dropUnused(root: Root): void {
  const refs = (value: string) => [...value.matchAll(/var\(\s*(--[\w-]+)/g)].map((match) => match[1]);
  const used = new Set<string>();
  const definitions = new Map<string, string[]>();
  const animations = new Set<string>();
  root.walkDecls((decl) => {
    if (decl.prop.startsWith('--')) definitions.set(decl.prop, [...(definitions.get(decl.prop) ?? []), ...refs(decl.value)]);
    else for (const ref of refs(decl.value)) used.add(ref);
    if (/^animation(-name)?$/.test(decl.prop)) for (const word of decl.value.split(/[\s,]+/)) animations.add(word);
  });
  for (const name of used) for (const ref of definitions.get(name) ?? []) used.add(ref);
  root.walkDecls((decl) => {
    if (decl.prop.startsWith('--') && !used.has(decl.prop)) decl.remove();
  });
  root.walkAtRules(/keyframes$/, (rule) => {
    if (!animations.has(rule.params.trim())) rule.remove();
  });
  root.walkRules((rule) => {
    if (rule.nodes.length === 0) rule.remove();
  });
  root.walkAtRules((rule) => {
    if (rule.nodes?.length === 0) rule.remove();
  });
}

/** The first-screen sheet: the app sheet's rules that can style the first screen, in their order; licence comments stay. */
export function firstScreenSheet(appCss: string, words: FirstScreenVocabulary = FIRST_SCREEN): string {
  const root = postcss.parse(appCss);
  prune(root, words);
  dropUnused(root);
  root.walkComments((comment) => {
    if (!comment.text.startsWith('!')) comment.remove();
  });
  return `${root.toString().replace(/\n+/g, '\n').trim()}\n`;
}
