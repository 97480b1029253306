"""The eight lab steps as data: titles and goals in the lab's Korean wording and in English,
the answer files involved, the objects each step declares, and its example.

Object names and the namespace are the lab's own (the learner is told to use them); every value
the checks compare against (driver, device count, node, model, selector, devices) comes from the
cluster instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from gsb_tui.words import is_korean

LAB_NAMESPACE = "dra-lab"
LAB_DIR = "/root/gsb-dra"
BIG_DEVICES = 4  # step 8: dra-big asks for more devices than the earlier steps leave free


@dataclass(frozen=True)
class Step:
    id: int
    title_ko: str
    title_en: str
    goal_ko: str
    goal_en: str
    files: tuple[str, ...]  # answer files in the lab directory
    objects: tuple[tuple[str, str], ...]  # (kind, name) the step creates in LAB_NAMESPACE
    example: str  # package data under gsb_tui/lab/examples/

    def title(self, lang: str) -> str:
        return self.title_ko if is_korean(lang) else self.title_en

    def goal(self, lang: str) -> str:
        return self.goal_ko if is_korean(lang) else self.goal_en

    @property
    def file(self) -> str:
        return self.files[0]


STEPS: tuple[Step, ...] = (
    Step(
        1,
        "드라이버가 공개한 장치 목록을 읽는다",
        "Read the devices the driver publishes",
        "ResourceSlice 를 읽어 /root/gsb-dra/slices.txt 에 driver=, devices=, node=, model= 을"
        " 적습니다.",
        "Read the ResourceSlices and write driver=, devices=, node=, model= to"
        " /root/gsb-dra/slices.txt.",
        ("slices.txt",),
        (),
        "step1.sh",
    ),
    Step(
        2,
        "DeviceClass 는 무엇을 고르나",
        "What a DeviceClass selects",
        "DeviceClass gpu.example.com 의 선택식을 /root/gsb-dra/class.txt 에 deviceclass=,"
        " selector= 로 적습니다.",
        "Write DeviceClass gpu.example.com's selector to /root/gsb-dra/class.txt as"
        " deviceclass= and selector=.",
        ("class.txt",),
        (),
        "step2.sh",
    ),
    Step(
        3,
        "틀로 요청서를 찍어 파드에 장치를 준다",
        "Stamp a claim from a template and give a pod a device",
        "ResourceClaimTemplate one-gpu 와 Pod dra-1 을 /root/gsb-dra/one.yaml 로 만들어"
        " Running 으로 둡니다.",
        "Create ResourceClaimTemplate one-gpu and Pod dra-1 from /root/gsb-dra/one.yaml and get"
        " dra-1 Running.",
        ("one.yaml",),
        (("ResourceClaimTemplate", "one-gpu"), ("Pod", "dra-1")),
        "one.yaml",
    ),
    Step(
        4,
        "찍혀 나온 요청서와 할당 결과를 읽는다",
        "Read the stamped claim and its allocation",
        "dra-1 의 요청서 이름·할당 장치·환경 변수 이름을 /root/gsb-dra/claim.json 에 claim,"
        " device, env_var 로 적습니다.",
        "Write dra-1's claim name, allocated device and environment variable name to"
        " /root/gsb-dra/claim.json as claim, device, env_var.",
        ("claim.json",),
        (),
        "step4.sh",
    ),
    Step(
        5,
        "CEL 로 장치 하나를 정확히 고른다",
        "Pick exactly one device with CEL",
        "index 7 장치만 고르는 ResourceClaim pick-seven 과 Pod dra-7 을 /root/gsb-dra/pick.yaml 로"
        " 만듭니다.",
        "Create ResourceClaim pick-seven, selecting only the device with index 7, and Pod dra-7"
        " from /root/gsb-dra/pick.yaml.",
        ("pick.yaml",),
        (("ResourceClaim", "pick-seven"), ("Pod", "dra-7")),
        "pick.yaml",
    ),
    Step(
        6,
        "요청서 하나를 두 파드가 함께 쓴다",
        "Two pods share one claim",
        "ResourceClaim shared 를 Pod share-a, share-b 가 함께 쓰게 /root/gsb-dra/shared.yaml 로"
        " 만듭니다.",
        "Create ResourceClaim shared used by both Pods share-a and share-b from"
        " /root/gsb-dra/shared.yaml.",
        ("shared.yaml",),
        (("ResourceClaim", "shared"), ("Pod", "share-a"), ("Pod", "share-b")),
        "shared.yaml",
    ),
    Step(
        7,
        "장치 둘을 한 요청서로 받는다",
        "Two devices in one claim",
        "장치 둘을 받는 ResourceClaimTemplate two-gpus 와 Pod dra-2x 를 /root/gsb-dra/two.yaml 로"
        " 만듭니다.",
        "Create ResourceClaimTemplate two-gpus, which gets two devices, and Pod dra-2x from"
        " /root/gsb-dra/two.yaml.",
        ("two.yaml",),
        (("ResourceClaimTemplate", "two-gpus"), ("Pod", "dra-2x")),
        "two.yaml",
    ),
    Step(
        8,
        "남은 장치보다 많이 요청하고 장부를 계산한다",
        "Ask for more than is left and do the ledger",
        "장치 4개를 요청하는 Pod dra-big 을 만들어 Pending 을 보고, /root/gsb-dra/report.json 에"
        " allocated_devices, free_devices, pending_pods 를 적습니다.",
        "Create Pod dra-big asking for 4 devices, see it stay Pending, and write"
        " allocated_devices, free_devices, pending_pods to /root/gsb-dra/report.json.",
        ("report.json",),
        (("Pod", "dra-big"),),
        "big.yaml",
    ),
)

STEP_IDS: tuple[int, ...] = tuple(s.id for s in STEPS)

# Step 8's report commands live beside its manifest; steps 1, 2 and 4 only have commands.
SNIPPETS: dict[int, tuple[str, ...]] = {
    1: ("step1.sh",),
    2: ("step2.sh",),
    3: ("one.yaml",),
    4: ("step4.sh",),
    5: ("pick.yaml",),
    6: ("shared.yaml",),
    7: ("two.yaml",),
    8: ("big.yaml", "step8.sh"),
}


def step(step_id: int) -> Step:
    for s in STEPS:
        if s.id == step_id:
            return s
    raise KeyError(f"no lab step {step_id} (steps are 1..{len(STEPS)})")


def example_text(name: str) -> str:
    """One example file shipped as package data (a manifest or a command snippet)."""
    return resources.files("gsb_tui.lab").joinpath("examples", name).read_text(encoding="utf-8")


def example_for(step_id: int) -> str:
    """Everything the `e` key shows for a step: its manifest and/or commands, in order."""
    parts = []
    for name in SNIPPETS[step_id]:
        parts.append(f"# --- {name} ---\n{example_text(name).rstrip()}\n")
    return "\n".join(parts)
