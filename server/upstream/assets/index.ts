import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Asset } from '../../../contract/schemas/app-settings.ts';

/**
 * Files served by GET /v2/app-settings/asset/{id}. They ship with the product (this folder), so the
 * list is code, not data; an id maps to exactly one file here, never to a path from the request.
 */
const FILES: { id: string; fileName: string; contentType: string }[] = [
  { id: 'logo', fileName: 'logo.png', contentType: 'image/png' },
  { id: 'coach-handbuch', fileName: 'coach-handbuch.pdf', contentType: 'application/pdf' },
  { id: 'patienten-leitfaden', fileName: 'patienten-leitfaden.pdf', contentType: 'application/pdf' },
  { id: 'telefoncoaching-protokoll', fileName: 'telefoncoaching-protokoll.pdf', contentType: 'application/pdf' },
];

export interface AssetFile extends Asset {
  /** Absolute path of the file. */
  path: string;
}

export const ASSETS: ReadonlyMap<string, AssetFile> = new Map(
  FILES.map((file) => {
    const path = fileURLToPath(new URL(file.fileName, import.meta.url));
    return [file.id, { ...file, path, size: statSync(path).size }];
  }),
);

export const publicAsset = ({ id, fileName, contentType, size }: AssetFile): Asset => ({ id, fileName, contentType, size });
