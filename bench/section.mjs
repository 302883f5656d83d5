// One section of `npm run bench` in a Node process of its own: bench/run.mjs forks one per
// section. In one process, a section ran on the heap the ones before it left (the throughput
// runs fold 200,000 messages several times over), and the host side of the pixels section then
// paid for old-generation collections of that garbage: its p95 was 14.0 / 16.7 ms in a full run
// against 7.6 / 11.9 ms on its own, on the same build and the same machine.
const [file, name] = process.argv.slice(2);
const module = await import(new URL(file, import.meta.url));
const result = await module[name]();
// Output to a file or a pipe is written synchronously on Linux, so nothing printed is lost.
process.send(result, () => process.exit(0));
