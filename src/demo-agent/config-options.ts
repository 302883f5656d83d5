// Session config options: ACP's general pickers (mode, model, …), offered next to the legacy
// `modes` as Claude's adapter does; a client that knows config options uses them and ignores
// `modes`. The `mode` select mirrors the modes (same ids, one modeId in DemoSession), so both
// ways of switching stay in step. The boolean option is offered only to clients that said they
// can show one (session.configOptions.boolean), as the protocol requires.

import type { SessionConfigOption, SessionConfigSelectGroup, SessionConfigSelectOption } from './acp-types';
import { MODEL_GROUPS, MODELS } from './models';
import { invalidParams } from './params';
import { type DemoSession, MODES } from './session';

/** The complete set, in priority order; sent whole every time (the protocol has no patches). */
export function configOptions(session: DemoSession): SessionConfigOption[] {
  const options: SessionConfigOption[] = [
    {
      id: 'mode',
      name: 'Mode',
      description: 'How the demo agent works; the same choice as the session mode',
      category: 'mode',
      type: 'select',
      currentValue: session.modeId,
      options: MODES.map((m) => ({ value: m.id, name: m.name, description: m.description })),
    },
    {
      id: 'model',
      name: 'Model',
      description: 'Pretend models: the turn is scripted, only the name in the reply and the cost change',
      category: 'model',
      type: 'select',
      currentValue: session.modelId,
      options: modelGroups(),
    },
  ];
  if (session.offersBooleanOptions) {
    options.push({
      id: 'verbose',
      name: 'Verbose replies',
      description: 'End every demo reply with the session details',
      type: 'boolean',
      currentValue: session.verbose,
    });
  }
  return options;
}

/**
 * Applies the params of session/set_config_option (`value` a value id, or `type: "boolean"`
 * with a boolean). Throws -32602 with what is wrong; returns the id of the option it changed.
 */
export function setConfigOption(session: DemoSession, p: Record<string, unknown>): string {
  const method = 'session/set_config_option';
  const available = configOptions(session);
  if (typeof p.configId !== 'string') throw invalidParams(`${method}: configId must be a string`);
  const option = available.find((o) => o.id === p.configId);
  if (!option) {
    throw invalidParams(`${method}: unknown configId ${JSON.stringify(p.configId)}; this session has ${available.map((o) => o.id).join(', ')}`);
  }

  if (option.type === 'boolean') {
    if (p.type !== 'boolean' || typeof p.value !== 'boolean') {
      throw invalidParams(`${method}: "${option.id}" is a boolean option; send type "boolean" and a boolean value`);
    }
    session.verbose = p.value;
    return option.id;
  }

  // A select: the value is a value id, sent without `type` (the schema reads an unknown `type`
  // with a string value the same way, so only "boolean" is refused).
  if (p.type === 'boolean') throw invalidParams(`${method}: "${option.id}" is a select option; send a value id as a string, without type`);
  const values = selectValues(option.options).map((o) => o.value);
  if (typeof p.value !== 'string' || !values.includes(p.value)) {
    throw invalidParams(`${method}: ${JSON.stringify(p.value)} is not a value of "${option.id}"; expected one of ${values.join(', ')}`);
  }
  if (option.id === 'mode') session.modeId = p.value;
  else session.modelId = p.value;
  return option.id;
}

function modelGroups(): SessionConfigSelectGroup[] {
  return MODEL_GROUPS.map(({ group, name }) => ({
    group,
    name,
    options: MODELS.filter((m) => m.group === group).map((m) => ({ value: m.id, name: m.name, description: m.description })),
  }));
}

function selectValues(options: SessionConfigSelectOption[] | SessionConfigSelectGroup[]): SessionConfigSelectOption[] {
  return options.flatMap((o: SessionConfigSelectOption | SessionConfigSelectGroup) => ('group' in o ? o.options : [o]));
}
