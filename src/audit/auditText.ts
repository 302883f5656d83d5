// The audit log as a person reads it: one line per event, newest last (ACP: Show Audit Log).
import { escapeHidden } from '../base/shownText';
import type { AuditEvent } from './auditEvent';
import type { AuditLimits } from './auditLog';

/**
 * `2025-12-04 17:23:01Z  allowed    write       /w/src/a.ts  by default · Claude Code, session 1a2b… · 120 characters`:
 * time, decision and kind in columns, then what it was about (`named → real` when a path
 * resolved elsewhere), then who decided and the rest. Line breaks and other invisible characters
 * inside a value (a multi-line command, a bidi override in a path) are shown as escapes (`\n`,
 * `\u202E`: shownText.ts), so an event is one line and reads as it is.
 */
export function auditLine(event: AuditEvent): string {
  const time = event.time.replace('T', ' ').replace(/\.\d+(?=Z$)/, '');
  const who = event.rule ? `by ${event.by} (${event.rule})` : `by ${event.by}`;
  const where = event.sessionId ? `${event.agent}, session ${event.sessionId}` : event.agent;
  const parts = [who, where, ...(event.detail ? [event.detail] : [])];
  return escapeHidden(`${time}  ${event.decision.padEnd(9)}  ${event.kind.padEnd(10)}  ${event.target}${event.resolved ? ` → ${event.resolved}` : ''}  ${parts.join(' · ')}`);
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
