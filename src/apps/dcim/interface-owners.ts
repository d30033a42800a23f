import type { FilterDeclaration } from "../../schema/shapes.ts";
import { sql, type RawBuilder } from "kysely";
import { valueSet } from "../../schema/filter-sql.ts";

/**
 * Filters of rows assigned to an interface through a generic relation (IP addresses, MAC
 * addresses, FHRP group assignments): by the interface (`interface_id`, `interface` by name), its
 * device, and the same for VM interfaces and virtual machines, as NetBox names them. `type` and
 * `id` are the relation's columns.
 */
export function interfaceOwnerFilters(type: string, id: string): Record<string, FilterDeclaration> {
  const ids = (values: readonly string[]) =>
    sql`(SELECT value FROM json_each(${JSON.stringify(values.filter((v) => /^\d{1,15}$/.test(v.trim())).map(Number))}))`;
  const on = (objectType: string, interfaces: RawBuilder<unknown>) => (t: string) =>
    sql`(${sql.ref(`${t}.${type}`)} = ${objectType} AND ${sql.ref(`${t}.${id}`)} IN ${interfaces})`;
  const filter = (
    integer: boolean,
    where: (values: readonly string[]) => (t: string) => RawBuilder<unknown>,
    negatable = false,
  ): FilterDeclaration => ({ integer, negatable, sql: (values, t) => where(values)(t) });
  const DEVICE = "dcim.interface";
  const VM = "virtualization.vminterface";
  return {
    // NetBox negates the interface filters (`interface_id__n`), not the device ones.
    interface_id: filter(true, (v) => on(DEVICE, ids(v)), true),
    interface: filter(false, (v) => on(DEVICE, sql`(SELECT id FROM dcim_interface WHERE name IN ${valueSet(v)})`), true),
    device_id: filter(true, (v) => on(DEVICE, sql`(SELECT id FROM dcim_interface WHERE device_id IN ${ids(v)})`)),
    device: filter(false, (v) =>
      on(DEVICE, sql`(SELECT i.id FROM dcim_interface i JOIN dcim_device d ON d.id = i.device_id WHERE d.name IN ${valueSet(v)})`),
    ),
    vminterface_id: filter(true, (v) => on(VM, ids(v)), true),
    vminterface: filter(false, (v) => on(VM, sql`(SELECT id FROM virtualization_vminterface WHERE name IN ${valueSet(v)})`), true),
    virtual_machine_id: filter(true, (v) => on(VM, sql`(SELECT id FROM virtualization_vminterface WHERE virtual_machine_id IN ${ids(v)})`)),
    virtual_machine: filter(false, (v) =>
      on(
        VM,
        sql`(SELECT i.id FROM virtualization_vminterface i JOIN virtualization_virtualmachine vm ON vm.id = i.virtual_machine_id
          WHERE vm.name IN ${valueSet(v)})`,
      ),
    ),
  };
}
