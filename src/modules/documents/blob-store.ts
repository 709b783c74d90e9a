// Where the bytes of document versions live, behind one interface, so that a deployment can add an
// object store. An upload is first staged: streamed into a temporary file while its size is
// counted (stopping as soon as it passes the limit), its SHA-256 computed and its content checked,
// so that no transaction waits on a slow client and a refused upload leaves nothing behind. The
// staged file then becomes a blob inside the transaction that writes the version row.
import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import type { Transaction } from 'kysely'
import type { Database } from '../../platform/db/database.ts'
import type { DB } from '../../platform/db/schema.ts'
import { platformErrors } from '../../platform/http/errors.ts'
import { documentErrors } from './documents.errors.ts'
import * as repo from './documents.repository.ts'
import type { ContentCheck } from './documents.rules.ts'

export type StorageKind = 'DATABASE' | 'FILESYSTEM'

export type BlobSource = Uint8Array | AsyncIterable<Uint8Array> | Readable

/**
 * An upload held in a temporary file, checked and measured. Its own enumerable members are what
 * identifies the content (an Idempotency-Key request hash reads them); the file path is private.
 */
export class StagedUpload {
  readonly contentType: string
  readonly size: number
  readonly sha256: string
  readonly #path: string

  constructor(filePath: string, contentType: string, size: number, sha256: string) {
    this.#path = filePath
    this.contentType = contentType
    this.size = size
    this.sha256 = sha256
  }

  /** The temporary file; moved away by a file-system put, removed by discard. */
  get filePath(): string {
    return this.#path
  }

  /** Removes the temporary file if it is still there. */
  async discard(): Promise<void> {
    await fs.promises.rm(this.#path, { force: true })
  }
}

function chunksOf(source: BlobSource): AsyncIterable<Uint8Array> {
  if (source instanceof Uint8Array) return [source] as unknown as AsyncIterable<Uint8Array>
  // Leaving a request body unread must not destroy it: that would close the socket before the 413.
  if (source instanceof Readable) return source.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>
  return source
}

async function writeAll(file: fs.promises.FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0
  while (offset < chunk.byteLength) {
    const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset)
    offset += bytesWritten
  }
}

/**
 * Streams `source` into a new file in `dir`: refuses (413) as soon as more than `maxBytes` arrive,
 * refuses empty content (400), runs `check` over every chunk. On any failure the file is removed.
 */
export async function stageContent(
  source: BlobSource,
  options: { dir: string; maxBytes: number; contentType: string; check: ContentCheck; sync: boolean },
): Promise<StagedUpload> {
  await fs.promises.mkdir(options.dir, { recursive: true })
  const filePath = path.join(options.dir, `${randomUUID()}.part`)
  const file = await fs.promises.open(filePath, 'wx', 0o600)
  const hash = createHash('sha256')
  let size = 0
  try {
    for await (const chunk of chunksOf(source)) {
      size += chunk.byteLength
      if (size > options.maxBytes) {
        throw platformErrors.create('payload_too_large', `The document is larger than ${options.maxBytes} bytes`, {
          extensions: { maxBytes: options.maxBytes },
        })
      }
      options.check.update(chunk)
      hash.update(chunk)
      await writeAll(file, chunk)
    }
    if (size === 0) throw documentErrors.create('document_empty', 'The document has no content')
    options.check.finish()
    if (options.sync) await file.sync()
    await file.close()
  } catch (err) {
    await file.close().catch(() => {})
    await fs.promises.rm(filePath, { force: true })
    throw err
  }
  return new StagedUpload(filePath, options.contentType, size, hash.digest('hex'))
}

export type BlobStore = {
  readonly kind: StorageKind
  /** Directory for staging uploads bound for this store. */
  readonly stagingDir: string
  /** Makes the staged bytes durable under `key`; a database blob is written in `tx`, with its version row. */
  put(tx: Transaction<DB>, tenantId: number, key: string, staged: StagedUpload): Promise<void>
  /** Removes a blob whose version row was never committed (best effort). */
  forget(tenantId: number, key: string): Promise<void>
  /** The stored bytes, in order. Throws when the blob is missing, before yielding anything. */
  open(tenantId: number, key: string): Promise<Readable>
}

/** Size of a database chunk: a 25 MiB document is 100 rows, read a few at a time. */
export const CHUNK_BYTES = 256 * 1024
const CHUNKS_PER_READ = 4

/** Blobs as bytea chunks in document_blob_chunk, under the tenant's row-level security. */
export function databaseBlobStore(db: Database, stagingDir: string): BlobStore {
  return {
    kind: 'DATABASE',
    stagingDir,
    async put(tx, tenantId, key, staged) {
      let seq = 0
      for await (const data of fs.createReadStream(staged.filePath, { highWaterMark: CHUNK_BYTES })) {
        await repo.insertChunk(tx, tenantId, key, seq++, data as Buffer)
      }
    },
    // Chunks are written in the version's transaction: if that rolled back, there is nothing to remove.
    async forget() {},
    async open(tenantId, key) {
      const first = await db.read(tenantId, (x) => repo.readChunks(x, tenantId, key, 0, CHUNKS_PER_READ))
      if (first.length === 0) throw new Error(`document blob ${key} of tenant ${tenantId} is missing`)
      return Readable.from(
        (async function* () {
          let batch = first
          let next = 0
          while (batch.length > 0) {
            for (const chunk of batch) {
              next = chunk.seq + 1
              yield chunk.data
            }
            if (batch.length < CHUNKS_PER_READ) return
            batch = await db.read(tenantId, (x) => repo.readChunks(x, tenantId, key, next, CHUNKS_PER_READ))
          }
        })(),
        { objectMode: false },
      )
    },
  }
}

const KEY_PATTERN = /^[0-9a-f]{32}$/

/**
 * Blobs as files under `<dir>/tenant-<id>/<first two key characters>/<key>`. A staged file (in
 * `<dir>/.staging`, the same file system) is renamed into place, so a blob appears whole or not at all.
 */
export function fileSystemBlobStore(dir: string): BlobStore {
  const blobPath = (tenantId: number, key: string) => {
    // Keys are made here (random hex); anything else must never become a path.
    if (!KEY_PATTERN.test(key) || !Number.isSafeInteger(tenantId)) throw new Error('invalid blob key')
    return path.join(dir, `tenant-${tenantId}`, key.slice(0, 2), key)
  }
  return {
    kind: 'FILESYSTEM',
    stagingDir: path.join(dir, '.staging'),
    async put(_tx, tenantId, key, staged) {
      const target = blobPath(tenantId, key)
      await fs.promises.mkdir(path.dirname(target), { recursive: true })
      try {
        await fs.promises.rename(staged.filePath, target)
      } catch (err) {
        // Staged on another file system (a caller's own staging directory): copy instead.
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err
        await fs.promises.copyFile(staged.filePath, target, fs.constants.COPYFILE_EXCL)
      }
    },
    async forget(tenantId, key) {
      await fs.promises.rm(blobPath(tenantId, key), { force: true })
    },
    async open(tenantId, key) {
      const handle = await fs.promises.open(blobPath(tenantId, key), 'r')
      return handle.createReadStream({ highWaterMark: CHUNK_BYTES })
    },
  }
}
