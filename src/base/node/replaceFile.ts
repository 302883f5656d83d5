// A file written whole or not at all: the data goes to a temporary file beside it, which is then
// renamed over it (a rename within a folder is atomic), so a crash or a full disk mid-write leaves
// the old file, never half a new one. The process id in the temporary name keeps two windows that
// write the same file at once from writing into one temporary file. Errors are the caller's to
// handle; the temporary file is removed first.
import * as fs from 'node:fs';

const temporaryOf = (file: string) => `${file}.${process.pid}.tmp`;

export function replaceFileSync(file: string, data: string | NodeJS.ArrayBufferView): void {
  const temporary = temporaryOf(file);
  try {
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}

export async function replaceFile(file: string, data: string | NodeJS.ArrayBufferView): Promise<void> {
  const temporary = temporaryOf(file);
  try {
    await fs.promises.writeFile(temporary, data);
    await fs.promises.rename(temporary, file);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}
