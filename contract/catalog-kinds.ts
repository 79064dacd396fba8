/** The building blocks of the /v2 catalogue (contract/catalog.ts): who may call, what a call is, the usual call sets. */
export type Permission =
  | 'public'
  | 'signed-in'
  | 'reset-link'
  | 'admin'
  | 'self-or-admin'
  | 'manage-coach'
  | 'health-manager-or-admin'
  | 'linked-coach-or-admin'
  | 'primary-coach-or-admin'
  | 'author-or-admin'
  | 'reference-data'
  | 'patient-history';

export const PERMISSIONS: Record<Permission, string> = {
  public: 'No token needed.',
  'signed-in': 'Any signed-in coach (valid token, account not locked).',
  'reset-link': 'The one-time token from the emailed reset link (30 minutes, single use) as bearer token.',
  admin: 'Administrators (isAdmin or isSuperAdmin).',
  'self-or-admin': 'The coach named in the path, or an administrator.',
  'manage-coach':
    'The coach named in the path; an administrator for a coach who is not an administrator; only a super administrator for an administrator or super administrator (else 403 SUPER_ADMIN_REQUIRED). The last unlocked super administrator cannot be locked, deleted or lose isSuperAdmin (409 LAST_SUPER_ADMIN).',
  'health-manager-or-admin': 'Health managers (isHealthManager) and administrators.',
  'linked-coach-or-admin':
    "The patient's primary coach, a coach linked to the patient (patient coaches), or an administrator. Lists contain only such patients' rows.",
  'primary-coach-or-admin':
    "The patient's primary coach or an administrator (a coach only linked to the patient gets 403): who is responsible for a patient, who is in its care team and whether it is deleted.",
  'author-or-admin':
    "Reading as linked-coach-or-admin; changing or deleting only by the comment's author or an administrator. A deleted comment is kept: coaches no longer see it, administrators read it by id and in lists whose filter names deletedAt.",
  'patient-history':
    'Administrators: every entry. Other coaches: the history of one patient they may open (linked-coach-or-admin), named by `where.patientId` (without it 403); entries of comments deleted since are left out.',
  'reference-data': 'Every signed-in coach reads; administrators create, change and delete.',
};

export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  permission: Permission;
  summary: string;
  /** Shape of the query values (each JSON-encoded), e.g. 'ListFilter' for `filter`. */
  query?: string;
  body?: string;
  /** Shape of a JSON answer, 'file' for a download, undefined for 204 No Content. */
  answer?: string;
  /** Success status when not 200 (JSON) or 204 (no answer). */
  status?: number;
  /** Not in docs/product.md#calls: only the built-in upstream has it, and the client hides what needs it when it is missing. */
  optional?: true;
}

export const crud = (path: string, shape: string, plural: string, permission: Permission, what: string): ApiCall[] => [
  { method: 'POST', path, permission, summary: `Create ${what}.`, body: `${shape}Create`, answer: shape, status: 201 },
  { method: 'GET', path, permission, summary: `List ${plural}; X-Total-Count has the number of matches.`, query: 'filter: ListFilter', answer: `${shape}[]` },
  { method: 'GET', path: `${path}/{id}`, permission, summary: `One ${what}.`, answer: shape },
  { method: 'PUT', path: `${path}/{id}`, permission, summary: `Replace ${what}.`, body: `${shape}Update`, answer: shape },
  { method: 'PATCH', path: `${path}/{id}`, permission, summary: `Change some fields of ${what}.`, body: `${shape}Patch`, answer: shape },
  { method: 'DELETE', path: `${path}/{id}`, permission, summary: `Delete ${what}.` },
];
export const readOnly = (path: string, shape: string, plural: string, permission: Permission, what: string): ApiCall[] => [
  { method: 'GET', path, permission, summary: `List ${plural}; X-Total-Count has the number of matches.`, query: 'filter: ListFilter', answer: `${shape}[]` },
  { method: 'GET', path: `${path}/{id}`, permission, summary: `One ${what}.`, answer: shape },
];
export const stats = (path: string, answer: string, summary: string, query = 'StatisticsQuery'): ApiCall => ({
  method: 'GET',
  path: `/statistics/${path}`,
  permission: 'health-manager-or-admin',
  summary,
  query,
  answer,
});

export const sync = '/patients/{patientId}/sync-db/{collection}';

export interface ApiFamily {
  name: string;
  intro: string;
  calls: ApiCall[];
}
