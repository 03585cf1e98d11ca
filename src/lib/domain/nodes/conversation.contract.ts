// The conversation node's contract: conditional outcomes (the flow names them), and what the page
// receives besides the avatar's words (those travel in the node view's `speech`).
import { z } from 'zod';

/** A way forward the page offers as buttons when replies are not understood. */
export const conversationChoiceSchema = z.object({ id: z.string(), label: z.string() });
export type ConversationChoice = z.infer<typeof conversationChoiceSchema>;

export const conversationViewPropsSchema = z.object({
	/** Offered after replies matched nothing, or when a condition cannot be judged from words. */
	choices: z.array(conversationChoiceSchema).optional()
});
export type ConversationViewProps = z.infer<typeof conversationViewPropsSchema>;
