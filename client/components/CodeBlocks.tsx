import { t } from '../lib/i18n.ts';

/** The server's own grouping (dashes or spaces) when it has one, otherwise blocks of `size`. */
export function codeBlocks(code: string, size = 4): string[] {
  const parts = code
    .trim()
    .toUpperCase()
    .split(/[\s-]+/)
    .filter(Boolean);
  if (parts.length > 1) return parts;
  const clean = parts[0] ?? '';
  const blocks: string[] = [];
  for (let i = 0; i < clean.length; i += size) blocks.push(clean.slice(i, i + size));
  return blocks;
}

/**
 * An access code or recovery key shown large, block by block, so it can be read out on the phone.
 * Screen readers get the characters spelled one by one.
 */
export function CodeBlocks({ code, size = 4, label, large }: { code: string; size?: number; label?: string; large?: boolean }) {
  const blocks = codeBlocks(code, size);
  const spelled = blocks.map((b) => b.split('').join(' ')).join(', ');
  return (
    <div className={large ? 'code-blocks code-blocks-large' : 'code-blocks'}>
      <span className="visually-hidden">{`${label ?? t('codeBlocks.label')}: ${spelled}`}</span>
      {blocks.map((block, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of decorative blocks, never reordered
        <span key={i} className="code-block" aria-hidden="true">
          {block}
        </span>
      ))}
    </div>
  );
}
