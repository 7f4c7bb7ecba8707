// Events for services (docs/serving.md §2, §4.7, §6): decoding one of the service's own events for its
// GraphQL query root, and queries of event tables run by the events service.

export { writeEventDecoding, EVENT_DECODING_TYPE } from "./decoding";
export { EventQuery, EventPage, EventEdge, EventQueryArgs } from "./query";
export { JsonObject, writeJsonValue } from "./json-object";
export { ServiceEvents, EventType, eventDbOf, eventKindOf } from "./service-events";
export { EventHeader, readEvent, decodeEventData } from "./event-record";
export { FracpackJson } from "./fracpack-json";
export { SchemaType, TypeKind, Member } from "./schema-type";
