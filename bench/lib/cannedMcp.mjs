// A server that does no work: it answers each MCP request at once with an answer recorded from the
// real server (a JSON file of method → result), over stdio or over HTTP on loopback. What a client
// takes against it is the floor of its transport: the client's own work plus the pipe or the HTTP
// round trip, under any server.
// Usage: node cannedMcp.mjs <answers.json> stdio|http   (http prints its port on stdout)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

const [answersFile, transport] = process.argv.slice(2);
const answers = JSON.parse(readFileSync(answersFile, 'utf8'));

/** The answer to one message, or undefined for a notification. */
function answer(message) {
  if (message.id === undefined) return undefined;
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result: answers[message.method] ?? {} });
}

if (transport === 'stdio') {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const out = answer(JSON.parse(line));
    if (out !== undefined) process.stdout.write(`${out}\n`);
  });
} else {
  const server = createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const out = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      if (out === undefined) {
        res.writeHead(202).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  server.listen(0, '127.0.0.1', () => console.log(server.address().port));
}
