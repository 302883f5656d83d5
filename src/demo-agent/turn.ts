// The scripted prompt turn. It shows, in order: a plan (updated as steps finish), thought
// chunks, a streamed markdown reply that quotes the prompt and names the mode and model, a
// `search` tool call with console output, a `read` tool call served by the client's
// fs/read_text_file, and an `edit` tool call behind session/request_permission. The first turn
// of a session also titles it (session_info_update); usage_update is sent by agent.ts.

import type { ContentBlock, PlanEntry, StopReason } from './acp-types';
import { parseSlashCommand, runSlashCommand } from './commands';
import { quote } from './format';
import { listStep } from './list-step';
import { type PromptSummary, summarisePrompt, titleFrom } from './prompt';
import { readStep } from './read-step';
import { TurnCancelled, type TurnEnv, type TurnIO } from './turn-io';
import { NOTES_FILE, writeStep } from './write-step';

/** Runs one turn; resolves with its stop reason ('cancelled' once the turn was cancelled). */
export async function runTurn(env: TurnEnv, blocks: readonly ContentBlock[]): Promise<StopReason> {
  try {
    const prompt = summarisePrompt(blocks);
    // Real agents title a session from its first prompt, and may do so at any time.
    if (env.session.turnCount === 1) {
      env.session.title = titleFrom(prompt); // kept for session/list and session/load
      env.io.update({ sessionUpdate: 'session_info_update', title: env.session.title });
    }
    const command = parseSlashCommand(prompt.text);
    if (command) return await runSlashCommand(env.io, command);
    return await runDemoTurn(env, prompt);
  } catch (err) {
    if (err instanceof TurnCancelled) return 'cancelled';
    throw err;
  }
}

async function runDemoTurn(env: TurnEnv, prompt: PromptSummary): Promise<StopReason> {
  const { io } = env;
  const plan = new Plan(io, [
    { content: 'List the files of the workspace', priority: 'high', status: 'in_progress' },
    { content: 'Read a file of the workspace through the client', priority: 'high', status: 'pending' },
    { content: `Write ${NOTES_FILE}, after asking for permission`, priority: 'medium', status: 'pending' },
    { content: 'Summarise what happened', priority: 'low', status: 'pending' },
  ]);
  plan.send();
  await io.pause(2);

  await io.think(`The user wrote ${prompt.text.length} characters. I will list the workspace and read a file to show tool calls, then ask before writing one.`);
  await io.say(introduction(env, prompt));

  await io.say(await listStep(env));
  plan.advance(0);

  await io.say(await readStep(env));
  plan.advance(1);

  const written = await writeStep(env, prompt);
  if (written === 'cancelled') return 'cancelled';
  await io.say(written);
  plan.advance(2);

  if (env.session.verbose) await io.say(details(env));
  await io.say('That was the whole demo turn. Type `/help` to see the commands.\n');
  plan.advance(3);
  return 'end_turn';
}

function introduction({ session }: TurnEnv, prompt: PromptSummary): string {
  const parts = ['## Demo agent\n\n'];
  parts.push(prompt.text.trim() === '' ? 'Your prompt had no text.\n\n' : `You wrote:\n\n${quote(prompt.text)}\n\n`);
  if (prompt.links.length > 0) parts.push(`You attached ${prompt.links.map((n) => `\`${n}\``).join(', ')}.\n\n`);
  for (const e of prompt.embedded) {
    parts.push(`You embedded \`${e.uri}\`${e.chars === undefined ? ' (binary)' : ` (${e.chars} characters)`}.\n\n`);
  }
  if (prompt.ignored.length > 0) parts.push(`I ignored blocks of type ${prompt.ignored.join(', ')}.\n\n`);
  parts.push(`I am in **${session.modeName}** mode, using ${session.modelName}. I am a scripted demo, not a model, so here is what I can show you.\n\n`);
  return parts.join('');
}

/** The extra paragraph of the `verbose` config option, so that switching it visibly does something. */
function details({ session, caps }: TurnEnv): string {
  const fs = [caps.fs?.readTextFile ? 'read' : undefined, caps.fs?.writeTextFile ? 'write' : undefined].filter(Boolean);
  return [
    '**Verbose replies are on.** Session details:',
    '',
    `- session \`${session.id}\`, turn ${session.turnCount}`,
    `- working directory \`${session.cwd}\``,
    `- mode \`${session.modeId}\`, model \`${session.modelId}\``,
    `- client file system: ${fs.length > 0 ? fs.join(' and ') : 'none'}; terminal: ${caps.terminal ? 'yes' : 'no'}`,
    '',
    '',
  ].join('\n');
}

/** The plan is a full replacement on every update, so this keeps all entries and resends them. */
class Plan {
  constructor(
    private readonly io: TurnIO,
    private readonly entries: PlanEntry[],
  ) {}

  send(): void {
    this.io.update({ sessionUpdate: 'plan', entries: this.entries.map((e) => ({ ...e })) });
  }

  /** Marks entry `done` completed and starts the next one. */
  advance(done: number): void {
    this.entries[done].status = 'completed';
    if (done + 1 < this.entries.length) this.entries[done + 1].status = 'in_progress';
    this.send();
  }
}
