import type { Migration } from 'kysely';
import * as accounts from './001-accounts.ts';
import * as patients from './002-patients-and-reference-data.ts';
import * as patientListIndex from './003-patient-list-index.ts';
import * as patientNameOrder from './004-patient-name-order-index.ts';
import * as news from './100-news.ts';
import * as settings from './101-settings-and-training-materials.ts';
import * as patientExtras from './102-patient-extras.ts';
import * as syncRecords from './103-sync-records.ts';
import * as trainingMaterials from './104-training-materials-content.ts';
import * as auditAndLimits from './105-audit-log-and-rate-limits.ts';
import * as germanSortKeys from './106-german-sort-keys.ts';
import * as softDeletedComments from './107-soft-deleted-comments.ts';
import * as patientFollowUp from './108-patient-follow-up.ts';
import * as tokenLastUse from './109-token-last-use.ts';
import * as spelledSearchKeys from './110-spelled-search-keys.ts';
import * as pendingEmail from './111-pending-email.ts';
import * as patientTokenLabel from './112-patient-token-label.ts';
import * as listIndexes from './113-list-indexes.ts';
import * as patientSearchIndex from './114-patient-search-index.ts';
import * as statisticsAtSize from './120-statistics-at-size.ts';
import * as searchIndexUpkeep from './121-search-index-upkeep.ts';
import * as recentDataCounts from './122-recent-data-counts.ts';
import * as endingSoonIndex from './123-ending-soon-index.ts';
import * as statisticsOrderIndexes from './124-statistics-order-indexes.ts';
import * as commentWalkIndex from './125-comment-walk-index.ts';
import * as patientFigureTotals from './126-patient-figure-totals.ts';
import * as aftercareLengthIndex from './127-aftercare-length-index.ts';
import * as searchTrigramCounts from './128-search-trigram-counts.ts';
import * as trigramNameOrder from './129-trigram-name-order.ts';
import * as aftercareEndDescOrder from './130-aftercare-end-desc-order.ts';
import * as shortKeyPatients from './131-short-key-patients.ts';
import * as statusFilterIndexes from './132-status-filter-indexes.ts';
import * as searchKeysInOrders from './133-search-keys-in-orders.ts';
import * as caseloadNameOrder from './134-caseload-name-order.ts';
import * as allKeysTrigramIndex from './135-all-keys-trigram-index.ts';
import * as aftercareEndDescFilter from './136-aftercare-end-desc-filter.ts';

/**
 * Every migration, by name. Names sort in the order they run (the number first). Add a file and one line here;
 * never change a migration that has been committed (data folders out there have run it) - add a new one instead.
 */
export const migrations: Record<string, Migration> = {
  '001-accounts': accounts,
  '002-patients-and-reference-data': patients,
  '003-patient-list-index': patientListIndex,
  '004-patient-name-order-index': patientNameOrder,
  '100-news': news,
  '101-settings-and-training-materials': settings,
  '102-patient-extras': patientExtras,
  '103-sync-records': syncRecords,
  '104-training-materials-content': trainingMaterials,
  '105-audit-log-and-rate-limits': auditAndLimits,
  '106-german-sort-keys': germanSortKeys,
  '107-soft-deleted-comments': softDeletedComments,
  '108-patient-follow-up': patientFollowUp,
  '109-token-last-use': tokenLastUse,
  '110-spelled-search-keys': spelledSearchKeys,
  '111-pending-email': pendingEmail,
  '112-patient-token-label': patientTokenLabel,
  '113-list-indexes': listIndexes,
  '114-patient-search-index': patientSearchIndex,
  '120-statistics-at-size': statisticsAtSize,
  '121-search-index-upkeep': searchIndexUpkeep,
  '122-recent-data-counts': recentDataCounts,
  '123-ending-soon-index': endingSoonIndex,
  '124-statistics-order-indexes': statisticsOrderIndexes,
  '125-comment-walk-index': commentWalkIndex,
  '126-patient-figure-totals': patientFigureTotals,
  '127-aftercare-length-index': aftercareLengthIndex,
  '128-search-trigram-counts': searchTrigramCounts,
  '129-trigram-name-order': trigramNameOrder,
  '130-aftercare-end-desc-order': aftercareEndDescOrder,
  '131-short-key-patients': shortKeyPatients,
  '132-status-filter-indexes': statusFilterIndexes,
  '133-search-keys-in-orders': searchKeysInOrders,
  '134-caseload-name-order': caseloadNameOrder,
  '135-all-keys-trigram-index': allKeysTrigramIndex,
  '136-aftercare-end-desc-filter': aftercareEndDescFilter,
};
