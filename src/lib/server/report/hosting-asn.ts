/**
 * "Is this address in a hosting/cloud/VPN network?" from the AS number and organisation name alone.
 *
 * How reliable this is (read before acting on it):
 * - It flags *networks*, not people. A true flag means the connection comes out of a data centre,
 *   cloud, CDN edge or VPN/proxy provider's address space; that is unusual for a person on a phone or
 *   home line and worth a look, not proof of fraud (corporate VPNs and Cloudflare WARP users are real
 *   people; Google and Microsoft networks also carry some office traffic).
 * - It misses: residential-proxy networks (they rent home connections precisely to look residential),
 *   VPN exits on small or new ASNs not named like a host, mobile carriers' own VPN products, and Tor
 *   exits. No free offline data set covers those; commercial "anonymous IP" databases do better.
 * - The name patterns produce some false positives (a telecom called "… Cloud …") and the list goes
 *   stale as providers buy address space; both are checked against the bundled ASN data in tests.
 * So the report calls it `isHosting`, and integrators should treat it as one signal among several.
 */

/** Large hosting, cloud and VPN providers, by AS number (names as in the bundled ASN data). */
export const HOSTING_ASNS: ReadonlyMap<number, string> = new Map([
	[13335, 'Cloudflare (CDN, WARP VPN)'],
	[15169, 'Google'],
	[19527, 'Google'],
	[396982, 'Google Cloud'],
	[16509, 'Amazon AWS'],
	[14618, 'Amazon AWS'],
	[8987, 'Amazon AWS (Ireland)'],
	[8075, 'Microsoft (Azure)'],
	[31898, 'Oracle Cloud'],
	[14061, 'DigitalOcean'],
	[16276, 'OVH'],
	[24940, 'Hetzner'],
	[212317, 'Hetzner'],
	[213230, 'Hetzner'],
	[63949, 'Akamai Connected Cloud (Linode)'],
	[20473, 'Vultr (The Constant Company)'],
	[51167, 'Contabo'],
	[12876, 'Scaleway'],
	[16265, 'Leaseweb'],
	[28753, 'Leaseweb'],
	[30633, 'Leaseweb'],
	[59253, 'Leaseweb'],
	[60781, 'Leaseweb'],
	[9009, 'M247 (VPN exits)'],
	[60068, 'Datacamp / CDN77 (VPN exits)'],
	[212238, 'Datacamp (VPN exits)'],
	[136787, 'PacketHub (NordVPN)'],
	[147049, 'PacketHub (NordVPN)'],
	[209854, 'Cyberzone (Surfshark)'],
	[62240, 'Clouvider'],
	[45102, 'Alibaba Cloud'],
	[37963, 'Alibaba Cloud'],
	[45090, 'Tencent Cloud'],
	[132203, 'Tencent Cloud'],
	[40676, 'Psychz'],
	[8100, 'QuadraNet'],
	[36352, 'HostPapa / ColoCrossing'],
	[21859, 'Zenlayer'],
	[199524, 'G-Core Labs'],
	[47583, 'Hostinger'],
	[8560, 'IONOS'],
	[46606, 'Unified Layer'],
	[26496, 'GoDaddy'],
	[55286, 'B2 Net Solutions'],
	[53667, 'FranTech (BuyVM)'],
	[9370, 'SAKURA Internet'],
	[197540, 'netcup'],
	[202425, 'IP Volume'],
	[35916, 'Multacom'],
	[25369, 'Hydra Communications (VPN exits)'],
	[396356, 'Latitude.sh'],
	[51852, 'Private Layer (VPN exits)'],
	[42831, 'UK Dedicated Servers']
]);

/** Words that hosting and VPN companies put in their AS names. */
const HOSTING_NAME = /\b(hosting|vps|vpn|proxy|data ?cent(?:er|re)s?|datacenters?|colocation|dedicated|servers?|cloud)\b/i;
/** Words that mark an access (home/mobile) network even when a hosting word also appears. */
const ACCESS_NAME = /\b(broadband|cable|mobile|wireless|telecom(?:munications?)?|telekom|fiber|fibre|dsl|isp)\b/i;

/** Whether an AS looks like hosting/cloud/VPN space (see the reliability notes above). */
export function isHostingNetwork(asn: number, organization?: string): boolean {
	if (HOSTING_ASNS.has(asn)) return true;
	if (!organization) return false;
	return HOSTING_NAME.test(organization) && !ACCESS_NAME.test(organization);
}
