import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../src/config.ts";
import { destinationProblem } from "../src/events/destination.ts";
import { createHarness, type Harness } from "./support/harness.ts";

/**
 * The destination policy sees through IPv4 written inside IPv6: each form below reaches the cloud
 * metadata address 169.254.169.254 (blocked by default) through a translator or tunnel.
 */
const config = parseConfig({});
const refused = (url: string) => destinationProblem(config, url);

describe("webhook destinations with IPv4 inside IPv6", () => {
  it.each([
    ["IPv4 itself", "http://169.254.169.254/"],
    ["IPv4-mapped", "http://[::ffff:169.254.169.254]/"],
    ["IPv4-mapped, hex", "http://[::ffff:a9fe:a9fe]/"],
    ["IPv4-translated", "http://[::ffff:0:a9fe:a9fe]/"],
    ["IPv4-compatible", "http://[::a9fe:a9fe]/"],
    ["IPv4-compatible, dotted", "http://[::169.254.169.254]/"],
    ["NAT64 well-known prefix", "http://[64:ff9b::a9fe:a9fe]/"],
    ["NAT64 well-known prefix, dotted", "http://[64:ff9b::169.254.169.254]/"],
    ["NAT64 local-use /96", "http://[64:ff9b:1::a9fe:a9fe]/"],
    ["NAT64 local-use /48", "http://[64:ff9b:1:a9fe:a9:fe00::]/"],
    ["NAT64 local-use /64", "http://[64:ff9b:1::a9:fea9:fe00:0]/"],
    ["6to4", "http://[2002:a9fe:a9fe::1]/"],
    ["Teredo client (inverted bits)", "http://[2001:0:4136:e378:8000:63bf:5601:5601]/"],
    ["link-local IPv6", "http://[fe80::1]/"],
  ])("refuses %s: %s", (_form, url) => {
    expect(refused(url)).toMatch(/blocked network \((169\.254\.0\.0\/16|fe80::\/10)/);
  });

  it.each([
    ["a public IPv4", "http://93.184.215.14/"],
    ["loopback IPv6", "http://[::1]/"],
    ["IPv4-mapped public", "http://[::ffff:93.184.215.14]/"],
    ["NAT64 public", "http://[64:ff9b::5db8:d70e]/"],
    ["6to4 public", "http://[2002:5db8:d70e::1]/"],
    ["Teredo with a public client", "http://[2001:0:4136:e378:8000:63bf:a247:28f1]/"],
    ["a global IPv6", "http://[2606:4700::6810:84e5]/"],
    ["a host name", "http://hooks.example.com/"],
  ])("lets %s through: %s", (_form, url) => {
    expect(refused(url)).toBeNull();
  });

  describe("end to end", () => {
    let api: Harness;
    beforeAll(async () => {
      api = await createHarness();
    });
    afterAll(() => api.close());

    it("fails a NAT64 metadata delivery without sending it", async () => {
      const webhook = await api.post("/api/extras/webhooks/", {
        name: "nat64",
        payload_url: "http://[64:ff9b::a9fe:a9fe]/latest/meta-data/",
      });
      expect(webhook.status, webhook.text).toBe(201);
      await api.post("/api/extras/event-rules/", {
        name: "nat64",
        object_types: ["dcim.site"],
        event_types: ["object_created"],
        action_object_type: "extras.webhook",
        action_object_id: webhook.body.id,
      });
      await api.post("/api/dcim/sites/", { name: "Metadata", slug: "metadata" });
      await api.queue.drain();
      const [run] = (await api.get(`/api/extras/webhook-deliveries/?webhook_id=${webhook.body.id}`)).body.results;
      expect(run.status.value).toBe("failed");
      expect(run.error_log).toContain("blocked network (169.254.0.0/16");
      expect(run.last_status_code).toBeNull();
    });
  });
});
