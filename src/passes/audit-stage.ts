// The audit stages: what `--stage`, the configuration and a contract's diagnostics.toml name.

/**
 * The stage `audit` judges a file at: `pipeline` (the default) as PyPTO's Default pipeline
 * compiles it, its passes run; `as-written` the text as it stands. The rules decide what each
 * stage reports; this only sets the `audit_stage` fact (rules/schema.dl).
 */
export type AuditStage = 'pipeline' | 'as-written';

/** The audit stages, as `--stage` and the configuration spell them. */
export const AUDIT_STAGES: readonly AuditStage[] = ['pipeline', 'as-written'];
