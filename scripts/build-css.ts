import postcss, { type Container, type Root } from 'postcss';
import selectorParser, { type Selector } from 'postcss-selector-parser';

/**
 * The first-screen sheet: the app sheet's rules that can style an element of the first screen, in their order. The
 * whole app sheet would add 12 KB of brotli to the first screen's 30 KB, and neither esbuild nor a PostCSS plugin at
 * hand cuts a sheet to what one screen renders: this step stays custom. A subsequence of the app sheet, it changes
 * nothing when that arrives (test/e2e/budgets.test.ts compares the computed styles of every element).
 */

/** What the first screen renders: client/features/login, components/Loading, ErrorBoundary, ConnectionBanner, features/internet-explorer. */
export const FIRST_SCREEN = {
  tags: new Set(['html', 'body', 'div', 'main', 'article', 'header', 'section', 'h1', 'h2', 'p', 'form', 'label', 'input', 'button', 'a', 'noscript']),
  classes: new Set(['auth-page', 'auth-card', 'auth-brand', 'auth-links', 'form-error', 'loading', 'page-error', 'connection-banner', 'visually-hidden']),
  ids: new Set(['app']),
  /** Attributes its elements carry, with the values a selector may test (none listed: any value). */
  attributes: Object.fromEntries(
    ['type=email,password,submit', 'name=email,password', 'aria-invalid=true', 'aria-busy=true,false', 'role=alert,status', 'id=app']
      .concat(['aria-live', 'disabled', 'required', 'href', 'autocomplete', 'lang', 'novalidate'])
      .map((attribute) => attribute.split('='))
      .map(([name, values]) => [name, values?.split(',') ?? []]),
  ) as Record<string, string[]>,
};
export type FirstScreenVocabulary = typeof FIRST_SCREEN;

/** Pseudo-elements that exist on one input type or one element only: pseudo-element -> that type or element. */
const OWNED =
  'number:-webkit-inner-spin-button,-webkit-outer-spin-button file:-webkit-file-upload-button,file-selector-button search:-webkit-search-cancel-button,-webkit-search-decoration date:-webkit-calendar-picker-indicator range:-webkit-slider-thumb,-webkit-slider-runnable-track,-moz-range-thumb,-moz-range-track select:-ms-expand summary:-webkit-details-marker li:marker';
const OWNER = Object.fromEntries([...OWNED.matchAll(/(\w+):(\S+)/g)].flatMap(([, owner, names]) => names.split(',').map((name) => [`::${name}`, owner])));
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
  root.walkDecls((decl) => {
    if (decl.prop.startsWith('--')) definitions.set(decl.prop, [...(definitions.get(decl.prop) ?? []), ...refs(decl.value)]);
    else for (const name of [...refs(decl.value), ...(/^animation(-name)?$/.test(decl.prop) ? decl.value.split(/[\s,]+/) : [])]) used.add(name);
  });
  for (const name of used) for (const ref of definitions.get(name) ?? []) used.add(ref);
  root.walkDecls((decl) => void (decl.prop.startsWith('--') && !used.has(decl.prop) && decl.remove()));
  root.walkAtRules(/keyframes$/, (rule) => void (used.has(rule.params.trim()) || rule.remove()));
}

/** The first-screen sheet: the app sheet's rules that can style the first screen, in their order (the build minifies it). */
export function firstScreenSheet(appCss: string, words: FirstScreenVocabulary = FIRST_SCREEN): string {
  const root = postcss.parse(appCss);
  prune(root, words);
  dropUnused(root);
  return root.toString();
}
