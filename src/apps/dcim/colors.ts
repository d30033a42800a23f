import type { FieldOptions } from "../../schema/shapes.ts";
import { f } from "../../schema/fields.ts";

/** NetBox's colour format: six lower-case hex digits, no `#`. */
export const HEX_COLOR = { regex: /^[0-9a-f]{6}$/, message: "Enter a valid hexadecimal RGB color code." };

/** A cable's, port's or template's colour: optional, six lower-case hex digits. */
export const optionalColor = (): FieldOptions => f.string({ maxLength: 6, blank: true, pattern: HEX_COLOR });
