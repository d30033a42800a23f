import type { Field, FieldKind, FieldOptions } from "../shapes.ts";
import { aliasKind, computedKind } from "./computed.ts";
import type { KindDescriptor, KindOf, SqlType } from "./descriptor.ts";
import { genericKind } from "./generic.ts";
import { customFieldsKind, jsonKind } from "./json.ts";
import { networkKind } from "./network.ts";
import { countKind, counterKind, fkKind, m2mKind, reverseKind } from "./relations.ts";
import {
  booleanKind,
  choiceKind,
  dateKind,
  datetimeKind,
  floatKind,
  integerKind,
  integerListKind,
  ipListKind,
  passwordKind,
  slugKind,
  stringKind,
  stringListKind,
  textKind,
} from "./scalar.ts";

/**
 * A kind's descriptor, looked up when asked: the kinds that consult others (an fk's and a reverse
 * relation's nested fields, an alias's target) are given it, so their files never import this one.
 */
const kindOf: KindOf = (kind) => KINDS[kind];

/** Every field kind's descriptor (see descriptor.ts for what one says). */
export const KINDS: Record<FieldKind, KindDescriptor> = {
  network: networkKind,
  string: stringKind,
  text: textKind,
  slug: slugKind,
  integer: integerKind,
  float: floatKind,
  date: dateKind,
  datetime: datetimeKind,
  password: passwordKind,
  boolean: booleanKind,
  choice: choiceKind,
  json: jsonKind,
  customFields: customFieldsKind,
  stringList: stringListKind,
  integerList: integerListKind,
  ipList: ipListKind,
  fk: fkKind(kindOf),
  m2m: m2mKind(kindOf),
  generic: genericKind,
  count: countKind,
  counter: counterKind,
  computed: computedKind,
  reverse: reverseKind(kindOf),
  alias: aliasKind(kindOf),
};

/** The key a read selects a field's extra SQL under: its name, or the key of a value fields share. */
export const selectKey = (field: Field): string => field.sharedAs ?? field.name;

/** The column a field is stored in, or null when it has none of its own. */
export function columnOf(name: string, o: FieldOptions): string | null {
  if (o.column !== undefined) return o.column;
  const storage = KINDS[o.kind].storage;
  return storage?.sqlType ? (storage.column?.(name) ?? name) : null;
}

/** Every stored column of a field, with its SQL type. */
export function columnsOf(field: Field): readonly (readonly [string, SqlType])[] {
  const storage = KINDS[field.kind].storage;
  if (storage?.columns) return storage.columns(field);
  return field.column && storage?.sqlType ? [[field.column, storage.sqlType]] : [];
}

/** The index a field's columns get, named `<table>_<name>`: its kind's, or one over all its columns when it has several. */
export function indexOf(field: Field): { readonly name: string; readonly columns: readonly string[] } | null {
  const storage = KINDS[field.kind].storage;
  if (storage?.index) return storage.index(field);
  return storage?.columns ? { name: field.name, columns: columnsOf(field).map(([column]) => column) } : null;
}

/** The field an alias stands for, or undefined for a field of any other kind. */
export const mirrorOf = (field: Field): string | undefined => KINDS[field.kind].mirrors?.(field);

/** True when clients may write the field. */
export const isWritable = (field: Field): boolean => !field.readOnly && KINDS[field.kind].input !== undefined;
