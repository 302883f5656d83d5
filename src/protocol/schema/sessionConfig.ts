import * as z from 'zod/mini';
import { meta } from './common';
import { lenientArray, lenientList, lenientNullable } from './lenient';

// Session modes (legacy) and config options (preferred when an agent sends both).

export const SessionModeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: lenientNullable(z.string()),
  ...meta,
});
export type SessionMode = z.infer<typeof SessionModeSchema>;

export const SessionModeStateSchema = z.object({
  currentModeId: z.string(),
  availableModes: lenientList(SessionModeSchema),
  ...meta,
});
export type SessionModeState = z.infer<typeof SessionModeStateSchema>;

/**
 * Open enum: `mode`, `model`, `model_config`, `thought_level`, `_`-prefixed custom values, or
 * values of later versions. It only guides the UI, so any string is accepted.
 */
export const SessionConfigOptionCategorySchema = z.string();
export type SessionConfigOptionCategory = z.infer<typeof SessionConfigOptionCategorySchema>;

export const SessionConfigSelectOptionSchema = z.object({
  value: z.string(),
  name: z.string(),
  description: lenientNullable(z.string()),
  ...meta,
});
export type SessionConfigSelectOption = z.infer<typeof SessionConfigSelectOptionSchema>;

export const SessionConfigSelectGroupSchema = z.object({
  group: z.string(),
  name: z.string(),
  options: lenientList(SessionConfigSelectOptionSchema),
  ...meta,
});
export type SessionConfigSelectGroup = z.infer<typeof SessionConfigSelectGroupSchema>;

/** A flat list of values, or a list of named groups of values. */
export const SessionConfigSelectOptionsSchema = z.union([
  z.array(SessionConfigSelectOptionSchema),
  z.array(SessionConfigSelectGroupSchema),
]);
export type SessionConfigSelectOptions = z.infer<typeof SessionConfigSelectOptionsSchema>;

const configOptionBase = {
  id: z.string(),
  name: z.string(),
  description: lenientNullable(z.string()),
  category: lenientNullable(SessionConfigOptionCategorySchema),
  ...meta,
};

/**
 * One option; the agent's array order is its priority order. An option of unknown `type` fails
 * here, so the lists below (all skip-invalid-items) drop it, as the docs ask.
 */
export const SessionConfigOptionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('select'),
    currentValue: z.string(),
    options: SessionConfigSelectOptionsSchema,
    ...configOptionBase,
  }),
  /** Only sent to clients that advertised `session.configOptions.boolean`. */
  z.object({
    type: z.literal('boolean'),
    currentValue: z.boolean(),
    ...configOptionBase,
  }),
]);
export type SessionConfigOption = z.infer<typeof SessionConfigOptionSchema>;
export type SessionConfigSelect = Extract<SessionConfigOption, { type: 'select' }>;
export type SessionConfigBoolean = Extract<SessionConfigOption, { type: 'boolean' }>;

/** Always the complete set: it replaces the previous one. */
export const SessionConfigOptionListSchema = lenientList(SessionConfigOptionSchema);

/** The state that `session/new`, `session/load` and `session/resume` return. */
export const sessionStateFields = {
  modes: lenientNullable(SessionModeStateSchema),
  configOptions: lenientNullable(lenientArray(SessionConfigOptionSchema)),
};
