// Automatic process runs over HTTP (docs/processes.md). Reads processes:read, starting and
// cancelling processes:run.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { authenticatedContext } from '../../platform/http/context.ts'
import { pageWindow, toPage } from '../../platform/http/pagination.ts'
import { Paged, problemResponses } from '../../platform/http/schemas.ts'
import { RunGuidParams, RunListQuery, RunPatchBody, RunSchema, RunStartBody } from './processes.schemas.ts'
import type { ProcessService, Scheduler } from './processes.service.ts'

const TAGS = ['Automatic processes']
const READ = { permission: 'processes:read' } as const
const RUN = { permission: 'processes:run' } as const
const runRef = Type.Unsafe<Record<string, unknown>>({ $ref: 'AutomaticProcessRun#' })

export const processRoutes: FastifyPluginAsyncTypebox<{ service: ProcessService; scheduler: Scheduler }> = async (
  app,
  { service, scheduler },
) => {
  app.addSchema(RunSchema)
  app.addHook('onClose', async () => scheduler.stop())

  app.get(
    '/api/automatic-process-runs',
    {
      schema: {
        tags: TAGS,
        operationId: 'listAutomaticProcessRuns',
        summary: 'List automatic process runs (paged)',
        description: 'Newest first. Filters: process, status, from/to (days the run was created, inclusive, UTC).',
        querystring: RunListQuery,
        response: { 200: Paged(runRef, 'AutomaticProcessRuns'), ...problemResponses() },
      },
      config: READ,
    },
    async (req) => {
      const { pageNumber, pageSize, process, status, from, to } = req.query
      const window = pageWindow({ pageNumber, pageSize })
      const r = await service.list(
        authenticatedContext(req),
        { process, status, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) },
        window,
      )
      return toPage(r.items, r.totalCount, window)
    },
  )

  app.post(
    '/api/automatic-process-runs',
    {
      schema: {
        tags: TAGS,
        operationId: 'createAutomaticProcessRun',
        summary: 'Start an automatic process now',
        description:
          '202 with the run QUEUED: the runner works it out of band. 422 process_run_invalid naming the field: process unknown, parameters.<name> unknown or out of range.',
        body: RunStartBody,
        response: { 202: runRef, ...problemResponses(422) },
      },
      config: RUN,
    },
    async (req, res) => {
      const run = await service.start(authenticatedContext(req), req.body)
      scheduler.wake()
      res.code(202).header('location', `/api/automatic-process-runs/${run.guid}`)
      return run
    },
  )

  app.get(
    '/api/automatic-process-runs/:guid',
    {
      schema: {
        tags: TAGS,
        operationId: 'getAutomaticProcessRun',
        summary: 'Read an automatic process run',
        params: RunGuidParams,
        response: { 200: runRef, ...problemResponses(404) },
      },
      config: READ,
    },
    async (req) => service.get(authenticatedContext(req), req.params.guid),
  )

  app.patch(
    '/api/automatic-process-runs/:guid',
    {
      schema: {
        tags: TAGS,
        operationId: 'updateAutomaticProcessRun',
        summary: 'Cancel an automatic process run',
        description:
          'JSON Merge Patch { status: CANCELLED }: a QUEUED run never starts; a RUNNING one stops before its next batch (the batch in progress commits first). 409 process_run_finished once SUCCEEDED, FAILED or CANCELLED.',
        params: RunGuidParams,
        body: RunPatchBody,
        consumes: ['application/merge-patch+json', 'application/json'],
        response: { 200: runRef, ...problemResponses(404, 409) },
      },
      config: RUN,
    },
    async (req) => service.cancel(authenticatedContext(req), req.params.guid),
  )
}
