package vocab

// Record kinds: what a fetched document is, the `kind` of a row in
// records.json. The registry clients write the first eight, the repository
// host client the last three.
const (
	KindNPMPackument     = "npm_packument"
	KindNPMVersion       = "npm_version"
	KindNPMTarball       = "npm_tarball"
	KindNPMAttestations  = "npm_attestations"
	KindPyPIJSON         = "pypi_json"
	KindPyPISimple       = "pypi_simple"
	KindPyPIProvenance   = "pypi_provenance"
	KindPyPIFile         = "pypi_file"
	KindRepository       = "repository"
	KindRepositoryOwner  = "repository_owner"
	KindRepositoryCommit = "repository_commit"
)

// Record outcomes. Exactly one is set on every record.
const (
	// RecordOK: the response was received whole and, for an artifact,
	// verified against a published SHA-2 digest.
	RecordOK = "ok"
	// RecordOKSHA1Only: an npm tarball whose packument published no SRI
	// integrity, verified against the legacy sha1 shasum instead. The bytes
	// are usable, and the weaker check is on the record.
	RecordOKSHA1Only = "ok_sha1_only"
	// RecordNotFound: the registry answered 404 or 410.
	RecordNotFound = "not_found"
	// RecordIntegrityMismatch: the bytes do not match the published digest;
	// the artifact is refused.
	RecordIntegrityMismatch = "integrity_mismatch"
	// RecordNoIntegrity: nothing usable was published to verify the
	// artifact against (no digest, or one that cannot be parsed); the
	// artifact is refused.
	RecordNoIntegrity = "no_integrity"
	// RecordTooLarge: the body passed the configured size cap.
	RecordTooLarge = "too_large"
	// RecordHTTPError: any other non-2xx status, or 5xx/429 after the
	// retries ran out.
	RecordHTTPError = "http_error"
	// RecordNetworkError: the transport failed (after retries).
	RecordNetworkError = "network_error"
	// RecordMalformed: a 2xx body that is not the document it should be.
	RecordMalformed = "malformed"
	// RecordInvalidRequest: nothing was fetched because the name, version
	// or URL asked for is not valid.
	RecordInvalidRequest = "invalid_request"
	// RecordCanceled: the caller's context ended the fetch.
	RecordCanceled = "canceled"
)
