// `npm run eval -- dialog`: how the embedded dialog judge routes the hand-written replies of
// tests/fixtures/dialog/replies.json, per language and intent, with the replies it got wrong.
import { routeReplies, routingTable } from '../../tests/helpers/reply-routing.ts';

const result = await routeReplies();
console.log(routingTable(result));
if (process.argv.includes('--wrong')) {
	for (const [lang, cells] of Object.entries(result)) {
		for (const [intent, cell] of Object.entries(cells)) {
			for (const w of cell.wrong) console.log(`${lang}\t${intent}\t${w.got}\t${w.reply}`);
		}
	}
}
