import { TsibaseError } from '../errors.js';

// Raised for account/method names and numbers that have no psibase encoding. Codes:
// INVALID_ACCOUNT_NAME, INVALID_ACCOUNT_NUMBER, INVALID_METHOD_NAME, INVALID_METHOD_NUMBER.
export class NameError extends TsibaseError {}
