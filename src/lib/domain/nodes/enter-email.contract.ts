// The enter_email node's contract: fixed outcomes and what the page receives.
import { z } from 'zod';
import { FIXED_OUTCOME_KEYS } from '../flow/node-types.ts';

export const ENTER_EMAIL_OUTCOMES = FIXED_OUTCOME_KEYS.enter_email;

export const enterEmailViewPropsSchema = z.object({
	/** An address already known (earlier node or the session's providedData), to confirm or change. */
	prefill: z.string().optional()
});
export type EnterEmailViewProps = z.infer<typeof enterEmailViewPropsSchema>;
