// The demo's pretend models, offered through the `model` config option. The names are clearly
// fake; the price only feeds the cost in usage_update, so that a client's cost display has
// numbers that move differently per model.

export interface DemoModel {
  id: string;
  name: string;
  description: string;
  /** Id of the group the model is listed under in the picker. */
  group: string;
  usdPerMillionTokens: number;
}

/** Picker groups, in display order. */
export const MODEL_GROUPS: ReadonlyArray<{ group: string; name: string }> = [
  { group: 'fast', name: 'Fast' },
  { group: 'thorough', name: 'Thorough' },
];

export const MODELS: readonly DemoModel[] = [
  { id: 'demo-swift', name: 'Demo Swift', description: 'Quick scripted answers', group: 'fast', usdPerMillionTokens: 0.8 },
  { id: 'demo-brisk', name: 'Demo Brisk', description: 'Quick, a little chattier', group: 'fast', usdPerMillionTokens: 1 },
  { id: 'demo-sage', name: 'Demo Sage', description: 'The same script, pondered longer', group: 'thorough', usdPerMillionTokens: 3 },
  { id: 'demo-scholar', name: 'Demo Scholar', description: 'The same script, with footnotes in spirit', group: 'thorough', usdPerMillionTokens: 15 },
];

export const DEFAULT_MODEL_ID = 'demo-swift';

export function modelById(id: string): DemoModel | undefined {
  return MODELS.find((m) => m.id === id);
}
