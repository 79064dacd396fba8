import * as esbuild from 'esbuild';
import postcss, { type AtRule, type ChildNode, type Root } from 'postcss';
import selectorParser, { type Node as SelectorNode, type Selector } from 'postcss-selector-parser';

/**
 * The client's styles become two stylesheets:
 *
 * - the APP SHEET: every CSS file the client imports (Pico, the global styles, every area's own file), in the
 *   order the code imports them, as one minified file. The shell and every area wait for it before they render
 *   (client/lib/areas.ts), and the login screen fetches it at low priority while the coach types.
 * - the FIRST-SCREEN SHEET: the rules of the app sheet that can style an element of the first screen (login,
 *   loading, page error, offline banner, unsupported browser), in the same order. The page links only this one.
 *
 * Because the first-screen sheet is a subsequence of the app sheet, adding the app sheet after it changes
 * nothing on the first screen: every first-screen rule has an identical copy later in the app sheet, so the
 * cascade is exactly the app sheet's (test/e2e/budgets.slow.test.ts compares the computed styles of every element).
 */

export interface FirstScreenVocabulary {
  /** Element names the first screen renders (html and body included). */
  tags: string[];
  classes: string[];
  ids: string[];
  /** Attributes the first screen's elements carry, with the values a selector may test (empty: any value). */
  attributes: Record<string, string[]>;
}

/** What the first screen can render: client/features/login, components/Loading, ErrorBoundary, ConnectionBanner, features/internet-explorer. */
export const FIRST_SCREEN: FirstScreenVocabulary = {
  tags: ['html', 'body', 'div', 'main', 'article', 'header', 'section', 'h1', 'h2', 'p', 'form', 'label', 'input', 'button', 'a', 'noscript'],
  classes: ['auth-page', 'auth-card', 'auth-brand', 'auth-links', 'form-error', 'loading', 'page-error', 'connection-banner', 'visually-hidden'],
  ids: ['app'],
  attributes: {
    type: ['email', 'password', 'submit'],
    name: ['email', 'password'],
    'aria-invalid': ['true'],
    'aria-busy': ['true', 'false'],
    'aria-live': [],
    role: ['alert', 'status'],
    disabled: [],
    required: [],
    href: [],
    autocomplete: [],
    lang: [],
    novalidate: [],
    id: ['app'],
  },
};

/** Pseudo-elements that only exist on one kind of element: an input type, or an element name. */
const PSEUDO_ELEMENT_OF: Record<string, { type?: string; tag?: string }> = {
  '::-webkit-inner-spin-button': { type: 'number' },
  '::-webkit-outer-spin-button': { type: 'number' },
  '::-webkit-file-upload-button': { type: 'file' },
  '::file-selector-button': { type: 'file' },
  '::-webkit-search-cancel-button': { type: 'search' },
  '::-webkit-search-decoration': { type: 'search' },
  '::-webkit-calendar-picker-indicator': { type: 'date' },
  '::-webkit-slider-thumb': { type: 'range' },
  '::-webkit-slider-runnable-track': { type: 'range' },
  '::-moz-range-thumb': { type: 'range' },
  '::-moz-range-track': { type: 'range' },
  '::-ms-expand': { tag: 'select' },
  '::-webkit-details-marker': { tag: 'summary' },
  '::marker': { tag: 'li' },
};

/** Pseudo-classes that pass their selector list on: the compound matches when one of the arguments can. */
const MATCHES_ANY = new Set([':is', ':where', ':matches', ':-webkit-any', ':-moz-any', ':any', ':has']);

function compoundCanMatch(nodes: SelectorNode[], words: FirstScreenVocabulary): boolean {
  for (const node of nodes) {
    if (node.type === 'tag' && !words.tags.includes(node.value.toLowerCase())) return false;
    if (node.type === 'class' && !words.classes.includes(node.value)) return false;
    if (node.type === 'id' && !words.ids.includes(node.value)) return false;
    if (node.type === 'attribute') {
      const allowed = words.attributes[node.attribute.toLowerCase()];
      if (!allowed) return false;
      // Exact values only: a prefix/substring test ([type^=e]) is kept, it may match.
      const value = node.value === undefined ? undefined : node.value.toLowerCase();
      if (node.operator === '=' && value !== undefined && allowed.length > 0 && !allowed.includes(value)) return false;
    }
    if (node.type === 'pseudo' && MATCHES_ANY.has(node.value.toLowerCase())) {
      if (!node.nodes.some((inner) => selectorCanMatch(inner as Selector, words))) return false;
    }
    const owner = node.type === 'pseudo' ? PSEUDO_ELEMENT_OF[node.value.toLowerCase()] : undefined;
    if (owner?.type && !(words.attributes.type ?? []).includes(owner.type)) return false;
    if (owner?.tag && !words.tags.includes(owner.tag)) return false;
    // Other pseudo-classes (:hover, :not(), :nth-child()) and pseudo-elements only narrow further: they are kept.
  }
  return true;
}

/** True unless some compound of the selector names something the first screen never renders. */
export function selectorCanMatch(selector: Selector, words: FirstScreenVocabulary): boolean {
  let compound: SelectorNode[] = [];
  for (const node of selector.nodes) {
    if (node.type === 'combinator') {
      if (!compoundCanMatch(compound, words)) return false;
      compound = [];
    } else if (node.type !== 'comment') {
      compound.push(node);
    }
  }
  return compoundCanMatch(compound, words);
}

const parser = selectorParser();

/**
 * Keeps the rules (and at-rule blocks) of `root` whose selectors can match the vocabulary; prunes the rest in
 * place. A selector list keeps only its selectors that can match: specificity belongs to each selector of a
 * list, so `a{}` later overridden by the app sheet's `a,.x{}` behaves exactly as the full rule did.
 */
function prune(container: Root | AtRule, words: FirstScreenVocabulary): void {
  container.each((node: ChildNode) => {
    if (node.type === 'rule') {
      const keep = parser.astSync(node.selector).nodes.filter((selector) => selectorCanMatch(selector, words));
      if (keep.length === 0) node.remove();
      else node.selector = keep.map((selector) => selector.toString().trim()).join(',');
    } else if (node.type === 'atrule' && node.nodes) {
      if (/^(media|supports|layer|container|(-moz-)?document)$/i.test(node.name)) {
        prune(node, words);
        if (node.nodes.length === 0) node.remove();
      }
      // @keyframes, @font-face, @property: kept as they are (names, not elements).
    }
  });
}

const VAR = /var\(\s*(--[\w-]+)/g;

/**
 * Drops custom property declarations that nothing left in the sheet reads (Pico declares some 140, for
 * tables, menus, dialogs...), and animations nothing left runs. A variable counts as read when a kept declaration uses it, directly or through
 * other variables. The app sheet declares them all again when it arrives.
 */
function pruneUnusedVariables(root: Root): void {
  const used = new Set<string>();
  const definitions = new Map<string, string[]>();
  root.walkDecls((decl) => {
    const refs = [...decl.value.matchAll(VAR)].map((m) => m[1]);
    if (decl.prop.startsWith('--')) definitions.set(decl.prop, [...(definitions.get(decl.prop) ?? []), ...refs]);
    else for (const ref of refs) used.add(ref);
  });
  const queue = [...used];
  while (queue.length > 0) {
    for (const ref of definitions.get(queue.pop()!) ?? [])
      if (!used.has(ref)) {
        queue.push(ref);
        used.add(ref);
      }
  }
  root.walkDecls((decl) => {
    if (decl.prop.startsWith('--') && !used.has(decl.prop)) decl.remove();
  });
  // Animations nothing left in the sheet runs (Pico's dialogs, tooltips, progress bars).
  const animations = new Set<string>();
  root.walkDecls(/^animation(-name)?$/, (decl) => {
    for (const word of decl.value.split(/[\s,]+/)) animations.add(word);
  });
  root.walkAtRules(/keyframes$/, (rule) => {
    if (!animations.has(rule.params.trim())) rule.remove();
  });
  root.walkRules((rule) => {
    if (rule.nodes.length === 0) rule.remove();
  });
  root.walkAtRules((rule) => {
    if (rule.nodes && rule.nodes.length === 0) rule.remove();
  });
}

/** The first-screen sheet: the app sheet's rules that can style the first screen, in their order. */
export function firstScreenSheet(appCss: string, words: FirstScreenVocabulary = FIRST_SCREEN): string {
  const root = postcss.parse(appCss);
  prune(root, words);
  pruneUnusedVariables(root);
  root.walkComments((comment) => {
    // Licence comments stay (Pico's MIT notice); esbuild already dropped every other comment.
    if (!comment.text.startsWith('!')) comment.remove();
  });
  return `${root.toString().replace(/\n+/g, '\n').trim()}\n`;
}

export interface AppSheet {
  css: string;
  map: string;
}

/** The app sheet: `files` (absolute paths, in import order) bundled and minified into one stylesheet. */
export async function appSheet(files: string[], resolveDir: string, target: string[]): Promise<AppSheet> {
  const result = await esbuild.build({
    stdin: { contents: files.map((file) => `@import ${JSON.stringify(file)};`).join('\n'), loader: 'css', resolveDir, sourcefile: 'app.css' },
    bundle: true,
    minify: true,
    write: false,
    target,
    outfile: 'app.css',
    sourcemap: 'external',
    legalComments: 'inline',
    logLevel: 'warning',
  });
  const css = result.outputFiles.find((f) => f.path.endsWith('.css'))!.text;
  const map = result.outputFiles.find((f) => f.path.endsWith('.map'))!.text;
  return { css, map };
}
