import type { ElicitationPropertySchema, ElicitationSchema } from '../protocol';
import type { ElicitationFieldView, ElicitationValue } from '../forms/elicitationForm';

/**
 * The fields of a form-mode `elicitation/create` (ACP §11), in schema order. A property of a type
 * this client does not know (a later protocol version) cannot be filled in: it is listed in
 * `unsupported`, and when it is required the host declines the request.
 */
export function formFields(schema: ElicitationSchema): { fields: ElicitationFieldView[]; unsupported: { name: string; required: boolean }[] } {
  const required = new Set(schema.required ?? []);
  const fields: ElicitationFieldView[] = [];
  const unsupported: { name: string; required: boolean }[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    // `__proto__` cannot be an ordinary key of a JavaScript object everywhere the answer goes.
    const field = name === '__proto__' ? undefined : fieldOf(name, property, required.has(name));
    if (field) fields.push(field);
    else unsupported.push({ name, required: required.has(name) });
  }
  return { fields, unsupported };
}

function fieldOf(name: string, p: ElicitationPropertySchema, required: boolean): ElicitationFieldView | undefined {
  if (p.type === 'unknown') return undefined;
  const base = { name, title: p.title?.trim() || name, description: p.description ?? null, required };
  const defined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);
  const withDefault = (value: ElicitationValue | null | undefined) => (value === null || value === undefined ? {} : { default: value });
  switch (p.type) {
    case 'string': {
      const choices = p.oneOf?.map((o) => ({ value: o.const, title: o.title || o.const })) ?? p.enum?.map((v) => ({ value: v, title: v }));
      if (choices) return { ...base, type: 'choice', choices, ...withDefault(p.default) };
      return {
        ...base,
        type: 'string',
        ...strip({ minLength: defined(p.minLength), maxLength: defined(p.maxLength), pattern: defined(p.pattern), format: defined(p.format) }),
        ...withDefault(p.default),
      };
    }
    case 'number':
    case 'integer':
      return { ...base, type: p.type, ...strip({ minimum: defined(p.minimum), maximum: defined(p.maximum) }), ...withDefault(p.default) };
    case 'boolean':
      return { ...base, type: 'boolean', ...withDefault(p.default) };
    case 'array': {
      const items = p.items;
      const choices = 'anyOf' in items ? items.anyOf.map((o) => ({ value: o.const, title: o.title || o.const })) : items.enum.map((v) => ({ value: v, title: v }));
      return { ...base, type: 'multiselect', choices, ...strip({ minItems: defined(p.minItems), maxItems: defined(p.maxItems) }), ...withDefault(p.default) };
    }
  }
}

/** Drops the keys whose value is undefined (the view schema has optional keys, not undefined values). */
function strip<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}
