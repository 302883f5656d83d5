import type { PermissionOptionView, PlanEntryView } from './protocol';

// Maps, not object literals: a tool kind is agent data, and "constructor" must not find a prototype key.
const TOOL_ICONS = new Map([
  ['read', 'book'],
  ['edit', 'edit'],
  ['delete', 'trash'],
  ['move', 'arrow-right'],
  ['search', 'search'],
  ['execute', 'terminal'],
  ['think', 'lightbulb'],
  ['fetch', 'globe'],
  ['switch_mode', 'arrow-swap'],
]);

export function toolIcon(toolKind: string): string {
  return TOOL_ICONS.get(toolKind) ?? 'tools';
}

const OPTION_ICONS: Record<PermissionOptionView['kind'], string> = {
  allow_once: 'check',
  allow_always: 'check-all',
  reject_once: 'close',
  reject_always: 'circle-slash',
};

export function optionIcon(kind: PermissionOptionView['kind']): string {
  return OPTION_ICONS[kind];
}

const PLAN_ICONS: Record<PlanEntryView['status'], string> = {
  completed: 'pass-filled',
  in_progress: 'circle-large-filled',
  pending: 'circle-large-outline',
};

export function planIcon(status: PlanEntryView['status']): string {
  return PLAN_ICONS[status];
}
