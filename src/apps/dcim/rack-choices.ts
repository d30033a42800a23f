import type { Choice } from "../../schema/shapes.ts";
/**
 * Choice lists for racks, rack types and power feeds, as NetBox 4.2's OpenAPI document gives them
 * (values and labels in NetBox's order; the blank entry is left to the engine).
 */

/** Rack status (NetBox RackStatusChoices). */
export const RACK_STATUS: readonly Choice[] = [
  { value: "reserved", label: "Reserved" },
  { value: "available", label: "Available" },
  { value: "planned", label: "Planned" },
  { value: "active", label: "Active" },
  { value: "deprecated", label: "Deprecated" },
];

/** Rack and rack type form factor (NetBox RackFormFactorChoices). */
export const RACK_FORM_FACTOR: readonly Choice[] = [
  { value: "2-post-frame", label: "2-post frame" },
  { value: "4-post-frame", label: "4-post frame" },
  { value: "4-post-cabinet", label: "4-post cabinet" },
  { value: "wall-frame", label: "Wall-mounted frame" },
  { value: "wall-frame-vertical", label: "Wall-mounted frame (vertical)" },
  { value: "wall-cabinet", label: "Wall-mounted cabinet" },
  { value: "wall-cabinet-vertical", label: "Wall-mounted cabinet (vertical)" },
];

/** Rail-to-rail width in inches (NetBox RackWidthChoices): numeric values. */
export const RACK_WIDTH: readonly Choice[] = [
  { value: 10, label: "10 inches" },
  { value: 19, label: "19 inches" },
  { value: 21, label: "21 inches" },
  { value: 23, label: "23 inches" },
];

/** Unit of a rack's outer dimensions (NetBox RackDimensionUnitChoices). */
export const RACK_DIMENSION_UNIT: readonly Choice[] = [
  { value: "mm", label: "Millimeters" },
  { value: "in", label: "Inches" },
];

/** Rack airflow (NetBox RackAirflowChoices). */
export const RACK_AIRFLOW: readonly Choice[] = [
  { value: "front-to-rear", label: "Front to rear" },
  { value: "rear-to-front", label: "Rear to front" },
];

/** Power feed status (NetBox PowerFeedStatusChoices). */
export const POWERFEED_STATUS: readonly Choice[] = [
  { value: "offline", label: "Offline" },
  { value: "active", label: "Active" },
  { value: "planned", label: "Planned" },
  { value: "failed", label: "Failed" },
];

/** Power feed type (NetBox PowerFeedTypeChoices). */
export const POWERFEED_TYPE: readonly Choice[] = [
  { value: "primary", label: "Primary" },
  { value: "redundant", label: "Redundant" },
];

/** Power feed supply (NetBox PowerFeedSupplyChoices). */
export const POWERFEED_SUPPLY: readonly Choice[] = [
  { value: "ac", label: "AC" },
  { value: "dc", label: "DC" },
];

/** Power feed phase (NetBox PowerFeedPhaseChoices). */
export const POWERFEED_PHASE: readonly Choice[] = [
  { value: "single-phase", label: "Single phase" },
  { value: "three-phase", label: "Three-phase" },
];
