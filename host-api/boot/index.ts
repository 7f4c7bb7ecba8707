export { BUNDLE_FORMAT, BUNDLE_VERSION, BundleError, packBundle, unpackBundle, type Bundle, type BundleService, type BundleServiceInput, type SiteFile } from './bundle.js';
export { bootTransactions, type BootOptions, type BootTransactions } from './boot-transactions.js';
export { isSystemAction, setSchemaAction, systemAction, type SystemAction } from './system-actions.js';
export { deployActions, newAccountAction, type DeployOptions, type NewAccountAuth } from './deploy-actions.js';
export { bootTransactionCount, runBoot, type BootProgress, type BootTarget } from './run-boot.js';
export { OPEN_AUTH_SERVICE, SYSTEM_ACCOUNTS, openSystemAccounts, openSystemAccountsIn, systemAccountsQuery } from './development-chain.js';
export { embeddedSchema } from './service-schema.js';
