// The audit log as a person reads it: one line per event, newest last (ACP: Show Audit Log).
import type { AuditEvent } from './auditEvent';
import type { AuditLimits } from './auditLog';

/**
 * `2025-12-04 17:23:01Z  allowed    write       /w/src/a.ts  by default · Claude Code, session 1a2b… · 120 characters`:
 * time, decision and kind in columns, then what it was about (`named → real` when a path
 * resolved elsewhere), then who decided and the rest.
 * Line breaks inside a value (a multi-line command) are shown as ⏎, so an event is one line.
 */
export function auditLine(event: AuditEvent): string {
  const time = event.time.replace('T', ' ').replace(/\.\d+(?=Z$)/, '');
  const who = event.rule ? `by ${event.by} (${event.rule})` : `by ${event.by}`;
  const where = event.sessionId ? `${event.agent}, session ${event.sessionId}` : event.agent;
  const parts = [who, where, ...(event.detail ? [event.detail] : [])];
  return oneLine(`${time}  ${event.decision.padEnd(9)}  ${event.kind.padEnd(10)}  ${event.target}${event.resolved ? ` → ${event.resolved}` : ''}  ${parts.join(' · ')}`);
}

/** The document: what it is, then every event, oldest first. */
export function auditText(events: readonly AuditEvent[], limits: Pick<AuditLimits, 'maxChanges' | 'maxReads'>): string {
  const header = [
    `ACP Host audit log of this workspace: ${events.length} event${events.length === 1 ? '' : 's'}, oldest first (the last ${limits.maxChanges} changes and, apart, the last ${limits.maxReads} reads are kept; known secrets show as ***).`,
    'Writes, terminal commands, reads of files not open in an editor, permissions, sign-ins and sign-outs, consent to workspace settings: what was asked, how it went, who decided. ACP: Export Audit Log… saves it as JSON Lines.',
    '',
  ];
  return [...header, ...events.map(auditLine)].join('\n') + '\n';
}

function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '⏎');
}
