// Slash commands. The client learns them from available_commands_update and runs one by sending
// "/name rest…" as the text of a normal session/prompt.

import type { AvailableCommand, PlanEntry, StopReason } from './acp-types';
import type { TurnIO } from './turn-io';

export const COMMANDS: AvailableCommand[] = [
  { name: 'help', description: 'List the commands of the demo agent' },
  { name: 'plan', description: 'Show a plan for a task, without running any tool', input: { hint: 'task to plan' } },
];

export interface SlashCommand {
  name: string;
  args: string;
}

export function parseSlashCommand(text: string): SlashCommand | undefined {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(text.trim());
  return match ? { name: match[1], args: match[2].trim() } : undefined;
}

export async function runSlashCommand(io: TurnIO, command: SlashCommand): Promise<StopReason> {
  switch (command.name) {
    case 'help':
      await io.say(helpText());
      break;
    case 'plan':
      await showPlan(io, command.args);
      break;
    default:
      await io.say(`I don't know the command \`/${command.name}\`.\n\n${helpText()}`);
  }
  return 'end_turn';
}

function helpText(): string {
  const lines = COMMANDS.map((c) => `- \`/${c.name}${c.input ? ` <${c.input.hint}>` : ''}\`: ${c.description}`);
  return [
    'The demo agent understands these commands:',
    '',
    ...lines,
    '',
    'Any other prompt runs the demo turn: a plan, a listing of the workspace, a file read through the client, and a write that asks for permission first. Pick a mode and a model in the session options; the reply names both.',
    '',
  ].join('\n');
}

async function showPlan(io: TurnIO, task: string): Promise<void> {
  const subject = task === '' ? 'the task' : `“${task}”`;
  const entries: PlanEntry[] = [
    { content: `Understand ${subject}`, priority: 'high', status: 'pending' },
    { content: 'Make the change', priority: 'medium', status: 'pending' },
    { content: 'Check the result', priority: 'low', status: 'pending' },
  ];
  io.update({ sessionUpdate: 'plan', entries });
  await io.pause(2);
  await io.say(`Here is a plan for ${subject}. It is only a plan: \`/plan\` runs no tools.\n`);
}
