import { TsibaseError } from '../../host-api/errors.js';

export type ConfigErrorCode =
  | 'CONFIG_BAD_FIELD'  // a field of the server configuration has a value it cannot take
  | 'CONFIG_BAD_FILE';  // the persisted configuration file is not a JSON object

/** A configuration was refused; the message names the field. The running configuration stays. */
export class ConfigError extends TsibaseError {
  declare readonly code: ConfigErrorCode;

  constructor(code: ConfigErrorCode, message: string) {
    super(code, message);
  }
}
