"""The moderation console in a real browser (headless Chromium through chromedriver), against a
fresh `huddle` with demo data: the demo's case is Dmitri's spam in the global room, reported by
Chloe. Staff need a second factor (`run.sh` starts `huddle` with `auth.staff.second-factor=required`):
the administrator turns hers on through the API with a TOTP code computed here as an authenticator
would (RFC 6238), is refused by the console's sign-in without a code, and signs in with the next one.
She opens the oldest case, removes the message, and then the reporter's
inbox says so, the report reads `actioned`, the message is a tombstone and the audit trail shows the
decision, and the sender is told why. Along the way: the session cookie is out of the script's reach, no token is in a URL, and
the browser reported no Content-Security-Policy violation (the console's own script ran).

Usage: python3 deploy/console/console_test.py [gateway URL, default http://127.0.0.1:8080]
"""
import base64
import hashlib
import hmac
import json
import struct
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
SPAM = "Cheap boots, 90% off, today only"


def text_of(driver, by, value):
    """The element's text, or None while its page is being replaced: Chrome then reports a node that
    no longer belongs to the document rather than a stale element, and a wait should try again."""
    try:
        return driver.find_element(by, value).text
    except WebDriverException as error:
        if "does not belong to the document" in str(error):
            return None
        raise


def api(method, path, token=None, body=None):
    request = urllib.request.Request(BASE + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def totp(secret, step):
    """The six-digit code of a base32 secret at a thirty-second step (RFC 6238, HMAC-SHA-1)."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def turn_on_second_factor(email, password):
    """Sets up and confirms the account's TOTP factor; answers its secret and the step confirmed with."""
    token = api("POST", "/v1/auth/login", body={"email": email, "password": password})["accessToken"]
    secret = api("POST", "/v1/users/me/second-factor", token)["secret"]
    step = int(time.time() // 30)
    confirmed = api("POST", "/v1/users/me/second-factor/confirm", token, {"code": totp(secret, step)})
    assert len(confirmed["recoveryCodes"]) == 10, confirmed
    return secret, step


def eventually(what, check, seconds=30):
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("never happened: " + what)
        time.sleep(0.3)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def main():
    chloe = api("POST", "/v1/auth/login", body={"email": "chloe@huddle.dev", "password": "huddle-demo-player"})["accessToken"]
    eventually("the demo's report", lambda: any(r["reason"] == "spam" for r in api("GET", "/v1/reports", chloe)["items"]))

    secret, confirmed_step = turn_on_second_factor("ada@huddle.dev", "huddle-demo-admin")

    driver = browser()
    try:
        # A page that is being replaced answers lookups with stale or missing elements: try again.
        wait = WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
        driver.get(BASE + "/admin")
        assert driver.find_element(By.TAG_NAME, "h1").text == "Sign in", driver.page_source
        driver.find_element(By.ID, "email").send_keys("ada@huddle.dev")
        driver.find_element(By.ID, "password").send_keys("huddle-demo-admin")
        driver.find_element(By.ID, "sign-in-button").click()
        # The password alone is refused, on the page.
        wait.until(lambda d: d.find_elements(By.ID, "error"))
        assert driver.find_element(By.TAG_NAME, "h1").text == "Sign in", driver.page_source
        assert "code" in driver.find_element(By.ID, "error").text.lower(), driver.find_element(By.ID, "error").text
        assert not driver.get_cookie("huddle_console"), "a session without the second factor"
        # The code of the step after the one confirmed with: a code is taken once, and one step of drift is allowed.
        driver.find_element(By.ID, "password").send_keys("huddle-demo-admin")
        driver.find_element(By.ID, "code").send_keys(totp(secret, max(confirmed_step + 1, int(time.time() // 30))))
        driver.find_element(By.ID, "sign-in-button").click()
        wait.until(lambda d: text_of(d, By.TAG_NAME, "h1") == "Open cases")
        cookie = driver.get_cookie("huddle_console")
        assert cookie and cookie["httpOnly"] and cookie["sameSite"] == "Strict", cookie
        assert "huddle_console" not in driver.execute_script("return document.cookie"), "the session cookie is readable by scripts"

        # The oldest case is the first row of the queue.
        first = driver.find_elements(By.CSS_SELECTOR, "#cases a.case-link")[0]
        assert SPAM in first.text, first.text
        first.click()
        wait.until(lambda d: d.find_elements(By.ID, "decide"))
        assert SPAM in driver.find_element(By.ID, "content").text
        assert "Cheap boots" in driver.find_element(By.CSS_SELECTOR, "#context li.reported").text
        assert "spam" in driver.find_element(By.ID, "reasons").text

        # The console's script runs under its policy: the suspension's length shows with suspend only.
        action = Select(driver.find_element(By.ID, "action"))
        action.select_by_value("suspend")
        assert driver.find_element(By.ID, "suspendDays").is_displayed(), "the console's script did not run"
        action.select_by_value("remove")
        assert not driver.find_element(By.ID, "suspendDays").is_displayed(), "the console's script did not run"
        driver.find_element(By.ID, "reason").send_keys("Advertising in the global room.")
        driver.find_element(By.ID, "decide-button").click()
        wait.until(lambda d: "removed" in (text_of(d, By.ID, "actions") or ""))
        assert not driver.find_elements(By.ID, "decide"), "a decided case still offers the form"

        driver.find_element(By.ID, "nav-audit").click()
        wait.until(lambda d: d.find_elements(By.ID, "audit"))
        row = driver.find_element(By.CSS_SELECTOR, "#audit tbody tr").text
        assert "removed" in row and "Advertising in the global room." in row and "Ada Admin" in row, row

        for url in [entry["name"] for entry in driver.execute_script("return performance.getEntriesByType('navigation')")] + [driver.current_url]:
            assert "token" not in url.lower(), url
        violations = [entry for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]
        assert not violations, violations

        driver.find_element(By.ID, "sign-out").click()
        wait.until(lambda d: text_of(d, By.TAG_NAME, "h1") == "Sign in")
    finally:
        driver.quit()

    # What the reporter sees.
    said = eventually(
        "the reporter's inbox saying the message was removed",
        lambda: [n for n in api("GET", "/v1/notifications", chloe)["items"] if n["category"] == "moderation" and "removed the message" in n["body"]],
    )
    dmitri = api("POST", "/v1/auth/login", body={"email": "dmitri@huddle.dev", "password": "huddle-demo-player"})["accessToken"]
    # Dmitri reads Huddle in Estonian (the demo sets his profile's locale): his inbox says it in Estonian.
    eventually(
        "the sender's inbox saying why the message was removed, in Estonian",
        lambda: [n for n in api("GET", "/v1/notifications", dmitri)["items"] if n["body"] == "Moderaator eemaldas: sinu sõnum. Põhjus: Advertising in the global room."],
    )
    reports = api("GET", "/v1/reports", chloe)["items"]
    assert any(r["reason"] == "spam" and r["status"] == "actioned" for r in reports), reports
    rooms = api("GET", "/v1/chat/rooms", chloe)["items"]
    room = next(r for r in rooms if r["kind"] == "global")
    messages = api("GET", "/v1/chat/rooms/%s/messages" % room["id"], chloe)["items"]
    assert not any(SPAM in (m.get("text") or "") for m in messages), "the removed message still shows"
    print("console journey passed: signed in with a TOTP code; the reporter was told: %s" % said[0]["body"])


if __name__ == "__main__":
    main()
