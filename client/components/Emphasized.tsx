/** Renders a translated text in which *this part* is emphasised, without putting HTML in locale files. */
export function Emphasized({ text }: { text: string }) {
  const parts = text.split('*');
  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one translated sentence, never reordered
  return <>{parts.map((part, i) => (i % 2 === 1 ? <strong key={i}>{part}</strong> : part))}</>;
}
