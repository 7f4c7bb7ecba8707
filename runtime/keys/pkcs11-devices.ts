import { createHash } from 'node:crypto';
import { KeysError } from './errors.js';
import { Pkcs11Device } from './pkcs11-device.js';
import { Pkcs11Module, type Pkcs11Token } from './pkcs11-module.js';

// The devices of the configured PKCS#11 modules (server configuration `pkcs11-modules`): one per
// initialized token, found afresh on every look since tokens come and go.

const DEVICE_ID_BYTES = 16;

/**
 * Stable across restarts and slot renumbering: slots are numbered by the module, tokens keep
 * their serial number.
 */
function deviceId(modulePath: string, token: Pkcs11Token): string {
  const { manufacturerID, model, serialNumber } = token.info;
  return createHash('sha256')
    .update([modulePath, manufacturerID.trim(), model.trim(), serialNumber.trim()].join('\0'))
    .digest('hex')
    .slice(0, 2 * DEVICE_ID_BYTES);
}

export class Pkcs11Devices {
  /** By module path. */
  private readonly modules = new Map<string, Pkcs11Module>();
  /** By device id; a device keeps its session for as long as its token is present. */
  private readonly devices = new Map<string, Pkcs11Device>();

  /**
   * Loads the modules in `paths` not loaded yet and unloads the others. When one fails to load
   * (KEYS_MODULE_LOAD naming its path) the modules stay as they were.
   */
  setModules(paths: readonly string[]): void {
    const added: Pkcs11Module[] = [];
    try {
      for (const path of new Set(paths)) if (!this.modules.has(path)) added.push(Pkcs11Module.load(path));
    } catch (err) {
      for (const module of added) module.close();
      throw err;
    }
    for (const [path, module] of this.modules) {
      if (!paths.includes(path)) this.unload(module);
    }
    for (const module of added) this.modules.set(module.path, module);
  }

  /** The devices present now. */
  list(): Pkcs11Device[] {
    this.refresh();
    return this.known();
  }

  /** The devices as last found, without asking the modules again (a token gone since fails when used). */
  known(): Pkcs11Device[] {
    return [...this.devices.values()];
  }

  /** The device with this id; KEYS_UNKNOWN_DEVICE when no present token has it. */
  get(id: string): Pkcs11Device {
    this.refresh();
    const device = this.devices.get(id);
    if (!device) throw new KeysError('KEYS_UNKNOWN_DEVICE', `no device has the id '${id}'`);
    return device;
  }

  close(): void {
    for (const module of this.modules.values()) this.unload(module);
  }

  private refresh(): void {
    for (const module of this.modules.values()) {
      const present = new Set<string>();
      for (const token of module.tokens()) {
        const id = deviceId(module.path, token);
        present.add(id);
        if (!this.devices.has(id)) {
          const name = token.info.label.trim() || token.info.model.trim();
          this.devices.set(id, new Pkcs11Device(id, name, module, token.slot));
        }
      }
      this.forgetDevices(module, (id) => !present.has(id));
    }
  }

  private unload(module: Pkcs11Module): void {
    this.forgetDevices(module, () => true);
    this.modules.delete(module.path);
    module.close();
  }

  private forgetDevices(module: Pkcs11Module, gone: (id: string) => boolean): void {
    for (const [id, device] of this.devices) {
      if (device.module !== module || !gone(id)) continue;
      device.forget();
      this.devices.delete(id);
    }
  }
}
