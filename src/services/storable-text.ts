// Which text the service can keep (the database's rule, db/storable.ts), for the checks on request input at the HTTP
// edge: the HTTP layer asks the services, not the database module, what it may accept.
export { isStorableText, storableString, storableText, UNSTORABLE_TEXT_MESSAGE } from '../db/storable.js';
