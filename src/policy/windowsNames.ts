// How Windows (NTFS) stores a name, so that a path is compared with the protected list as the
// file system will see it: `.GIT.`, `GIT~1` and `.git::$INDEX_ALLOCATION` are all the folder
// `.git` there. The rules are git's own (`verify_path` with core.protectNTFS: is_ntfs_dotgit and
// is_ntfs_dot_generic in git's path.c): a segment ends at a `:` (what follows names a stream of
// it), trailing dots and spaces are dropped, and an 8.3 short name stands for the long name it
// abbreviates. Pure string work on `/`-separated forms, so every rule is tested on any platform.

/** Characters that make a glob segment more than a literal name. */
const WILDCARD = /[*?[\]{}()!+@\\]/;
/** More forms than this from one path (several ambiguous short names in it) are not worth telling apart: the first are kept. */
const MAX_FORMS = 16;

/** The long names a short name may stand for, learned from the protected globs. */
export type ShortNames = (segment: string) => string[];

/**
 * The short names (`GIT~1`, `VSCODE~1`, `GITMOD~2`, `ENV~1.LOC`) of the names in `globs`: for
 * each segment with a literal start (`.git`, `.env*`, `opencode.json*`), the pattern Windows
 * gives its regular short name (leading dots dropped, the stem cut to six characters, `~N`, the
 * extension cut to three) and the long name that matches the glob's segment. Windows falls back
 * to hashed short names (`GI7EBA~1`) after four clashes; those are not known here (git knows the
 * hash of four of its own names only).
 */
export function shortNames(globs: readonly string[]): ShortNames {
  const known: { pattern: RegExp; long: string }[] = [];
  for (const segment of new Set(globs.flatMap((g) => g.split('/')))) {
    const wildcard = segment.search(WILDCARD);
    const literal = wildcard === -1 ? segment : segment.slice(0, wildcard);
    const pattern = shortNamePattern(literal, wildcard !== -1);
    // With its wildcards dropped the name still matches its segment (`.env*` → `.env`).
    if (pattern) known.push({ pattern, long: segment.replace(new RegExp(WILDCARD.source, 'g'), '') });
  }
  return (segment) => known.filter((k) => k.pattern.test(segment)).map((k) => k.long);
}

function shortNamePattern(literal: string, open: boolean): RegExp | undefined {
  const bare = literal.replace(/^\.+/, '');
  const lastDot = bare.lastIndexOf('.');
  const base = (lastDot > 0 ? bare.slice(0, lastDot) : bare).replace(/[. ]/g, '');
  const ext = lastDot > 0 ? bare.slice(lastDot + 1) : '';
  if (base === '') return undefined;
  // A name that is 8.3 already has no other name.
  if (!open && bare === literal && base.length <= 8 && ext.length <= 3) return undefined;
  // Left open by a wildcard, the stem may go on (up to six characters) and the extension is anyone's.
  const more = open && lastDot <= 0 && base.length < 6 ? `[^.~]{0,${6 - base.length}}` : '';
  const extension = open ? '(\\.[^.]{1,3})?' : ext ? `\\.${escape(ext.slice(0, 3))}` : '';
  return new RegExp(`^${escape(base.slice(0, 6))}${more}~[1-9][0-9]*${extension}$`, 'i');
}

/**
 * The forms `form` (`/`-separated) has as Windows stores it: each segment cut at a `:` and
 * stripped of trailing dots and spaces, and each short name replaced by every long name it may
 * stand for. The first is `form` with no short name replaced.
 */
export function windowsForms(form: string, short: ShortNames): string[] {
  let forms = [''];
  for (const [i, segment] of form.split('/').entries()) {
    const stored = storedSegment(segment);
    const choices = [stored, ...short(stored)];
    forms = forms.flatMap((f) => choices.map((c) => (i === 0 ? c : `${f}/${c}`))).slice(0, MAX_FORMS);
  }
  return forms;
}

function storedSegment(segment: string): string {
  // `name:stream:type` is a stream of `name` (`.git::$INDEX_ALLOCATION` is the folder itself).
  const name = segment.split(':')[0].replace(/[. ]+$/, '');
  // Only dots (or a bare stream): not a name Windows would store; kept as it is.
  return name === '' ? segment : name;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
