import { changedFields } from '../../../lib/changes.ts';
import { useState, type ReactNode } from 'react';
import { DataState } from '../../../components/DataState.tsx';
import { useMutation } from '../../../data/useMutation.ts';
import { useQuery } from '../../../data/useQuery.ts';
import { formatNumber, t } from '../../../lib/i18n.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';
import { FormDialog } from '../FormDialog.tsx';
import { invalidFields, saveErrorText } from '../form-errors.ts';

export interface Column<T> {
  header: string;
  cell: (item: T) => ReactNode;
  numeric?: boolean;
}

/** Everything a reference list needs; `F` is the form's shape (strings and booleans as typed). */
export interface ReferenceConfig<T extends { id: string }, F, B extends object> {
  /** Locale prefix with heading, create, empty, created, saved, deleted, deleteText ... keys. */
  keyPrefix: string;
  load: (signal: AbortSignal) => Promise<{ data: T[] }>;
  /** A function so headers follow a language switch. */
  columns: () => Column<T>[];
  itemName: (item: T) => string;
  emptyForm: () => F;
  toForm: (item: T) => F;
  /** Locale keys of problems per field; empty = may be sent. */
  validate: (form: F) => Partial<Record<keyof F & string, string>>;
  renderFields: (form: F, set: (patch: Partial<F>) => void, errorFor: (field: keyof F & string) => string | null) => ReactNode;
  /** The record the form describes, as the API takes it. */
  toBody: (form: F) => B;
  create: (body: B) => Promise<unknown>;
  /** A PATCH with `changes`: only the fields the form changed (an API's PUT would replace the whole record). */
  update: (item: T, changes: Partial<B>) => Promise<unknown>;
  remove: (item: T) => Promise<unknown>;
}

type Editing<T> = { mode: 'create' } | { mode: 'edit'; item: T } | null;

/** List, create, edit and delete (with confirmation) for one kind of reference data. */
export function ReferenceTable<T extends { id: string }, F, B extends object>({
  config,
  onNotice,
}: {
  config: ReferenceConfig<T, F, B>;
  onNotice: (text: string) => void;
}) {
  const k = (key: string, params?: Record<string, string | number>) => t(`${config.keyPrefix}.${key}`, params);
  const items = useQuery((signal) => config.load(signal), config.keyPrefix);
  const [editing, setEditing] = useState<Editing<T>>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const list = items.data ?? [];
  const columns = config.columns();

  return (
    <section aria-labelledby={`${config.keyPrefix}-heading`}>
      <div className="admin-toolbar">
        <h2 id={`${config.keyPrefix}-heading`}>{k('heading')}</h2>
        <button type="button" onClick={() => setEditing({ mode: 'create' })}>
          {k('create')}
        </button>
      </div>
      <DataState status={items.status} error={items.error} onRetry={items.reload} hasData={list.length > 0} empty={list.length === 0} emptyText={k('empty')}>
        <p className="admin-count">{t('admin.count', { n: formatNumber(list.length) })}</p>
        <div className="table-scroll">
          <table className="admin-table">
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.header} scope="col" data-numeric={c.numeric ? '' : undefined}>
                    {c.header}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">{t('admin.actionsColumn')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((item) => (
                <tr key={item.id}>
                  {columns.map((c) => (
                    <td key={c.header} data-numeric={c.numeric ? '' : undefined}>
                      {c.cell(item)}
                    </td>
                  ))}
                  <td className="admin-row-actions">
                    <button
                      type="button"
                      className="secondary outline"
                      aria-label={t('admin.editNamed', { name: config.itemName(item) })}
                      onClick={() => setEditing({ mode: 'edit', item })}
                    >
                      {t('admin.edit')}
                    </button>
                    <button
                      type="button"
                      className="danger outline"
                      aria-label={t('admin.deleteNamed', { name: config.itemName(item) })}
                      onClick={() => setDeleting(item)}
                    >
                      {t('admin.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </DataState>
      {editing && (
        <ReferenceForm
          config={config}
          item={editing.mode === 'edit' ? editing.item : undefined}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            onNotice(message);
            items.reload();
          }}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={k('deleteTitle')}
          text={k('deleteText', { name: config.itemName(deleting) })}
          confirmLabel={t('admin.delete')}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await config.remove(deleting);
            onNotice(k('deleted', { name: config.itemName(deleting) }));
            setDeleting(null);
            items.reload();
          }}
        />
      )}
    </section>
  );
}

function ReferenceForm<T extends { id: string }, F, B extends object>({
  config,
  item,
  onClose,
  onSaved,
}: {
  config: ReferenceConfig<T, F, B>;
  item?: T;
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const k = (key: string, params?: Record<string, string | number>) => t(`${config.keyPrefix}.${key}`, params);
  const [form, setForm] = useState<F>(() => (item ? config.toForm(item) : config.emptyForm()));
  const [checked, setChecked] = useState(false);
  const save = useMutation();
  const serverInvalid = invalidFields(save.error);
  const errors = checked ? config.validate(form) : {};
  const errorFor = (field: keyof F & string) => {
    const key = (errors as Record<string, string | undefined>)[field];
    return key ? t(key) : serverInvalid.has(field) ? t('admin.checkValue') : null;
  };

  const submit = async () => {
    setChecked(true);
    if (Object.keys(config.validate(form)).length > 0) return;
    await save.run(async () => {
      if (item) await config.update(item, changedFields(config.toBody(config.toForm(item)), config.toBody(form)));
      else await config.create(config.toBody(form));
      onSaved(item ? k('saved') : k('created'));
    });
  };

  return (
    <FormDialog
      title={item ? k('editTitle') : k('createTitle')}
      submitLabel={item ? t('admin.save') : k('create')}
      busy={save.busy}
      error={save.error === null ? null : saveErrorText(save.error)}
      onSubmit={submit}
      onClose={onClose}
    >
      {config.renderFields(form, (patch) => setForm((f) => ({ ...f, ...patch })), errorFor)}
    </FormDialog>
  );
}
