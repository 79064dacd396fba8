import { assetUrl } from '../../api/app-settings.ts';
import { getTrainingMaterials } from '../../api/system.ts';
import type { TrainingMaterial } from '../../../contract/schemas/system.ts';
import { DataState } from '../../components/DataState.tsx';
import { useQuery } from '../../data/useQuery.ts';
import { formatDate, formatNumber, t } from '../../lib/i18n.ts';

const CATEGORIES: TrainingMaterial['category'][] = ['manual', 'training', 'form', 'patient-information'];

/** "1,4 MB" / "820 KB" in the active locale. */
export function fileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes >= 1024 * 1024) return t('information.sizeMb', { n: formatNumber(bytes / (1024 * 1024), { maximumFractionDigits: 1 }) });
  return t('information.sizeKb', { n: formatNumber(Math.max(1, Math.round(bytes / 1024))) });
}

function fileKind(contentType: string, fileName: string): string {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(fileName)?.[1];
  if (ext) return ext.toUpperCase();
  return contentType.split('/')[1]?.toUpperCase() ?? '';
}

/** Training materials and forms, grouped, each a download link. */
export function MaterialsSection() {
  const materials = useQuery((signal) => getTrainingMaterials(signal), 'materials');
  const items = materials.data ?? [];
  return (
    <section aria-labelledby="information-materials-heading">
      <h2 id="information-materials-heading">{t('information.materialsHeading')}</h2>
      <DataState
        status={materials.status}
        error={materials.error}
        onRetry={materials.reload}
        empty={items.length === 0}
        emptyText={t('information.materialsEmpty')}
      >
        {CATEGORIES.filter((category) => items.some((m) => m.category === category)).map((category) => (
          <section key={category} className="information-category" aria-labelledby={`information-category-${category}`}>
            <h3 id={`information-category-${category}`}>{t(`information.category.${category}`)}</h3>
            <ul className="information-materials">
              {items
                .filter((m) => m.category === category)
                .map((m) => (
                  <li key={m.id}>
                    <a href={assetUrl(m.assetId)} download={m.fileName} className="information-download">
                      {m.title}
                    </a>
                    <span className="information-meta">
                      {[fileKind(m.contentType, m.fileName), fileSize(m.size), t('information.updated', { date: formatDate(m.updatedAt) })]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                    {m.description && <p>{m.description}</p>}
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </DataState>
    </section>
  );
}
