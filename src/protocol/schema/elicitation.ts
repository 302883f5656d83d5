import * as z from 'zod/mini';
import { int64, meta, uint32, uint64 } from './common';
import { RequestIdSchema } from './jsonrpc';
import { lenientArray, lenientNullable, openDiscriminatedUnion } from './lenient';

// `elicitation/create`: the agent asks the user for structured input (a form) or to visit a
// URL. Gated per mode by `clientCapabilities.elicitation.form` / `.url`.

export const EnumOptionSchema = z.object({
  const: z.string(),
  title: z.string(),
  description: lenientNullable(z.string()),
  ...meta,
});
export type EnumOption = z.infer<typeof EnumOptionSchema>;

export const StringFormatSchema = z.enum(['email', 'uri', 'date', 'date-time']);
export type StringFormat = z.infer<typeof StringFormatSchema>;

const propertyText = {
  title: lenientNullable(z.string()),
  description: lenientNullable(z.string()),
  ...meta,
};

/** Free text, or a single choice through `enum` (plain values) or `oneOf` (titled values). */
const stringProperty = z.object({
  type: z.literal('string'),
  minLength: z.nullish(uint32),
  maxLength: z.nullish(uint32),
  pattern: z.nullish(z.string()),
  format: z.nullish(StringFormatSchema),
  default: lenientNullable(z.string()),
  enum: z.nullish(z.array(z.string())),
  oneOf: z.nullish(z.array(EnumOptionSchema)),
  ...propertyText,
});

const numberProperty = z.object({
  type: z.literal('number'),
  minimum: z.nullish(z.number()),
  maximum: z.nullish(z.number()),
  default: lenientNullable(z.number()),
  ...propertyText,
});

const integerProperty = z.object({
  type: z.literal('integer'),
  minimum: z.nullish(int64),
  maximum: z.nullish(int64),
  default: lenientNullable(int64),
  ...propertyText,
});

const booleanProperty = z.object({
  type: z.literal('boolean'),
  default: lenientNullable(z.boolean()),
  ...propertyText,
});

/** Choices of a multi-select: plain values, or titled values (`anyOf`, no `type`). */
export const MultiSelectItemsSchema = z.union([
  z.object({ type: z.literal('string'), enum: z.array(z.string()), ...meta }),
  z.object({ anyOf: z.array(EnumOptionSchema), ...meta }),
]);
export type MultiSelectItems = z.infer<typeof MultiSelectItemsSchema>;

const multiSelectProperty = z.object({
  type: z.literal('array'),
  minItems: z.nullish(uint64),
  maxItems: z.nullish(uint64),
  items: MultiSelectItemsSchema,
  default: lenientNullable(lenientArray(z.string())),
  ...propertyText,
});

/**
 * One form field. The type set is open: a field type of a later version reads as
 * `{ type: 'unknown', kind }`, so the UI can decide (e.g. decline) instead of the request failing.
 */
export const ElicitationPropertySchemaSchema = openDiscriminatedUnion('type', [
  stringProperty,
  numberProperty,
  integerProperty,
  booleanProperty,
  multiSelectProperty,
]);
export type ElicitationPropertySchema = z.infer<typeof ElicitationPropertySchemaSchema>;
export type StringPropertySchema = Extract<ElicitationPropertySchema, { type: 'string' }>;
export type NumberPropertySchema = Extract<ElicitationPropertySchema, { type: 'number' }>;
export type IntegerPropertySchema = Extract<ElicitationPropertySchema, { type: 'integer' }>;
export type BooleanPropertySchema = Extract<ElicitationPropertySchema, { type: 'boolean' }>;
export type MultiSelectPropertySchema = Extract<ElicitationPropertySchema, { type: 'array' }>;

/** A flat JSON-Schema-like object; only primitive properties. */
export const ElicitationSchemaSchema = z.object({
  /** Always `object`; the schema defaults it when absent or invalid. */
  type: z.catch(z.literal('object'), 'object'),
  title: lenientNullable(z.string()),
  description: lenientNullable(z.string()),
  properties: z._default(z.record(z.string(), ElicitationPropertySchemaSchema), {}),
  required: z.nullish(z.array(z.string())),
  ...meta,
});
export type ElicitationSchema = z.infer<typeof ElicitationSchemaSchema>;

/** The request belongs either to a session (and maybe a tool call) or to a client request in flight. */
export const ElicitationScopeSchema = z.union([
  z.object({ sessionId: z.string(), toolCallId: lenientNullable(z.string()) }),
  /** The id of a client→agent request still pending (e.g. during auth or session setup). */
  z.object({ requestId: RequestIdSchema }),
]);
export type ElicitationScope = z.infer<typeof ElicitationScopeSchema>;

/**
 * Only the two v1 modes: a request for any other mode fails validation, which answers it with
 * -32602 — what the spec asks for a mode the client did not advertise.
 */
export const CreateElicitationRequestSchema = z.intersection(z
  .discriminatedUnion('mode', [
    z.object({
      mode: z.literal('form'),
      message: z.string(),
      requestedSchema: ElicitationSchemaSchema,
      ...meta,
    }),
    /** Show the full URL and host, ask for consent, never prefetch. */
    z.object({
      mode: z.literal('url'),
      message: z.string(),
      elicitationId: z.string(),
      url: z.string(),
      ...meta,
    }),
  ]), ElicitationScopeSchema);
export type CreateElicitationRequest = z.infer<typeof CreateElicitationRequestSchema>;

export const ElicitationContentValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export type ElicitationContentValue = z.infer<typeof ElicitationContentValueSchema>;

/** For URL mode, `accept` only means the user agreed to open the URL. */
export const CreateElicitationResponseSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('accept'),
    content: z.nullish(z.record(z.string(), ElicitationContentValueSchema)),
    ...meta,
  }),
  z.object({ action: z.literal('decline'), ...meta }),
  z.object({ action: z.literal('cancel'), ...meta }),
]);
export type CreateElicitationResponse = z.infer<typeof CreateElicitationResponseSchema>;

/** May follow a URL flow; unknown or repeated ids are ignored. */
export const CompleteElicitationNotificationSchema = z.object({
  elicitationId: z.string(),
  ...meta,
});
export type CompleteElicitationNotification = z.infer<typeof CompleteElicitationNotificationSchema>;
