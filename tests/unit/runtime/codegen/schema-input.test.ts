// A schema codegen cannot make a client of is refused whole, with one error that names where in
// the file the problem is and what it is.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { TsibaseError } from '../../../../host-api/errors.js';
import { canonicalServiceSchema } from '../../../../host-api/index.js';
import { readClientSchema } from '../../../../runtime/codegen/schema-input.js';
import { assertFails } from '../../../lib/assert-error.js';

const GOOD = {
  service: 'notes',
  types: { Note: { Object: { owner: 'AccountNumber', text: 'string' } } },
  actions: { setNote: { params: { Object: { text: 'string' } }, result: 'u32' }, getNote: { params: { Object: { owner: 'AccountNumber' } }, result: null } },
  history: { noteSet: { Object: { owner: 'AccountNumber', text: 'string' } } },
  merkle: { noteProved: { type: 'Note', access: 'public' } },
};

const refused = (schema: unknown, parts: string[]) => assertFails(() => readClientSchema(schema, 'build/notes.schema.json'), TsibaseError, 'CODEGEN_BAD_SCHEMA', ['build/notes.schema.json: ', ...parts, "give the schema 'tsibase build' writes"]);

test('a good schema comes back with events as their types and no null results', () => {
  assert.equal(readClientSchema(GOOD, 'x'), {
    service: 'notes',
    types: GOOD.types,
    actions: { setNote: GOOD.actions.setNote, getNote: { params: GOOD.actions.getNote.params } },
    history: GOOD.history,
    ui: {},
    merkle: { noteProved: 'Note' },
  });
});

test('psibase HEAD\'s form of the same schema (as packages stores it) reads the same', () => {
  const head = canonicalServiceSchema({ ...GOOD, database: { service: [{ name: 'notes', table: 1, type: 'Note', indexes: [[{ path: [0] }]] }] } });
  assert.equal(readClientSchema(head, 'x'), { ...readClientSchema(GOOD, 'x'), database: { service: [{ name: 'notes', table: 1, type: 'Note' }] } });
});

test('what is not a service schema at all', () => {
  refused([], ['expected a service schema (a JSON object)']);
  refused({ ...GOOD, service: 'Not A Name!' }, ['"service" must be the service\'s account name, got "Not A Name!"']);
  refused({ ...GOOD, service: undefined }, ['"service" must be the service\'s account name, got undefined']);
  refused({ ...GOOD, types: [] }, ['"types" must be an object of named types']);
  refused({ ...GOOD, actions: 'none' }, ['actions: expected an object, got string']);
});

test('types that do not compile, named by their place', () => {
  refused({ ...GOOD, types: { Loop: { Struct: { self: 'Loop' } } } }, ['types.Loop: ', "type 'Loop' contains itself without indirection"]);
  refused({ ...GOOD, types: { Bad: { Int: { bits: 99, isSigned: false } } } }, ['types.Bad: ', 'Int bits must be 1..64, got 99']);
  refused({ ...GOOD, actions: { setNote: { params: { Object: { text: 'Nope' } } } } }, ['actions.setNote.params: ', "unknown type 'Nope'"]);
  refused({ ...GOOD, actions: { setNote: { params: { Object: {} }, result: { Wat: 1 } } } }, ['actions.setNote.result: ', 'unknown type kind']);
  refused({ ...GOOD, history: { noteSet: { List: 'Missing' } } }, ['history.noteSet: ', "unknown type 'Missing'"]);
});

test('actions, events and tables of the wrong shape', () => {
  refused({ ...GOOD, actions: { setNote: { params: 'u32' } } }, ['actions.setNote.params: the parameters must be an Object or Struct type']);
  refused({ ...GOOD, actions: { 'set-note': { params: { Object: {} } } } }, ["actions.set-note: 'set-note' is not a method name"]);
  refused({ ...GOOD, actions: { setNote: 5 } }, ['actions.setNote: expected an object, got number']);
  refused({ ...GOOD, ui: { noteSet: 'u8' } }, ['ui.noteSet: an event of that name is listed twice']);
  refused({ ...GOOD, database: { service: {} } }, ['database.service: expected a list of tables']);
  refused({ ...GOOD, database: { service: [{ name: 'notes', table: -1, type: 'Note' }] } }, ['database.service[0].table: expected a table number (u16)']);
  refused({ ...GOOD, database: { service: [{ name: 'notes', table: 1, type: 'Gone' }] } }, ['database.service[0].type: ', "unknown type 'Gone'"]);
});

test.run();
