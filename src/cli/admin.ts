// Operator CLI entry: `npm run admin -- <command> [options]` (docs/cli.md). stdout is taken over
// before the rest of the program loads, so that only the command's reply can reach it.
import { readSecretLine, takeOverStdout } from './stdio.ts'

const reply = takeOverStdout()
let status: number
try {
  const { runCli } = await import('./run.ts')
  status = await runCli(process.argv.slice(2), {
    reply,
    diagnostic: (text) => process.stderr.write(text),
    readSecretLine: (prompt) => readSecretLine(process.stdin, prompt),
  })
} catch (err) {
  process.stderr.write(
    `error: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  )
  status = 1
}
// Exit now rather than when the event loop drains: the database is closed by then, and a handle a
// library leaves behind (the embedded database's runtime, stdin) must not keep the CLI hanging.
process.exit(status)
