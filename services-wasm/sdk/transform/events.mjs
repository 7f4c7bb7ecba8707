// Event decoding for every service: `__eventSchema()` answers the part of the service's schema
// that describes its events (`types`, `ui`, `history`, `merkle`: each event's name, field names
// and field types), from which the SDK's run-time decoder (sdk/events) unpacks the service's own
// events to JSON and GraphQL values. Compiled only into services that decode events.

/** The `__eventSchema()` member of a service class with schema `schema`. */
export function eventSchemaMember(schema) {
  const { types, ui, history, merkle } = schema;
  return `__eventSchema(): string { return ${JSON.stringify(JSON.stringify({ types, ui, history, merkle }))}; }`;
}
