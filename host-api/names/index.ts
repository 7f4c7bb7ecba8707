export { NameError } from './errors.js';
export { accountNameFromNumber, accountNumberFromName, isValidAccountName } from './account.js';
export { METHOD_SYMBOL_FREQUENCIES, methodNameFromNumber, methodNumberFromName, tryMethodNumberFromName } from './method.js';
export { seahash } from './seahash.js';
