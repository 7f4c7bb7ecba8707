// Action templates (docs/serving.md §4.4 `/action_templates`): for every action, an object holding its
// arguments with sample data, in the JSON mapping of docs/formats.md §3. Not a schema.

const SAMPLES = {
  bool: false, string: '', bytes: '', AccountNumber: '', MethodNumber: '',
  TimePointSec: '1970-01-01T00:00:00Z', TimePointUSec: '1970-01-01T00:00:00.000000Z',
  Checksum256: '00'.repeat(32),
};

function sample(type, types) {
  if (typeof type === 'string') {
    if (Object.hasOwn(SAMPLES, type)) return SAMPLES[type];
    return sample(types[type], types);
  }
  const [kind, body] = Object.entries(type)[0];
  switch (kind) {
    case 'Int': return body.bits > 32 ? '0' : 0;
    case 'Float': return 0;
    case 'List': return [];
    case 'Option': return null;
    case 'Object':
    case 'Struct': return Object.fromEntries(Object.entries(body).map(([name, member]) => [name, sample(member, types)]));
    case 'Variant': {
      const [name, alternative] = Object.entries(body)[0];
      return { [name]: sample(alternative, types) };
    }
    default: return sample(body.type, types); // Custom
  }
}

/** The `/action_templates` JSON of a service schema (see schema.mjs). */
export function actionTemplates(schema) {
  return JSON.stringify(Object.fromEntries(Object.entries(schema.actions).map(([name, action]) => [name, sample(action.params, schema.types)])));
}
