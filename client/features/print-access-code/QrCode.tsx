import { encode } from 'uqr';

/**
 * A QR code as SVG squares, drawn from uqr's module matrix: crisp at any print resolution, no canvas, and no
 * markup from a library injected into the page. Error correction M survives a crease or a smudge on paper.
 */
export function QrCode({ text, label, size = 128 }: { text: string; label: string; size?: number }) {
  const { data, size: modules } = encode(text, { ecc: 'M', border: 2 });
  let path = '';
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg className="qr-code" role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${modules} ${modules}`} shapeRendering="crispEdges">
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
