/** The sandbox key the e2e server is seeded with. */
export const E2E_KEY = 'sk_test_E2Ee2eE2Ee2eE2Ee2eE2Ee2e0001';
