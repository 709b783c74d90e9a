// Error codes of the documents module. Too-large and unsupported uploads use the platform's
// payload_too_large (413) and unsupported_media_type (415), with the limit or the accepted types.
import { defineErrors } from '../../platform/http/errors.ts'

export const documentErrors = defineErrors({
  document_not_found: { status: 404, title: 'Document not found' },
  file_not_found: { status: 404, title: 'File not found' },
  document_empty: { status: 400, title: 'Empty document' },
  document_content_mismatch: { status: 415, title: 'Content does not match its content type' },
  document_version_limit: { status: 422, title: 'Too many versions of one document' },
  download_link_invalid: { status: 403, title: 'Download link not valid' },
  download_link_expired: { status: 403, title: 'Download link expired' },
})
